/// The part of an item whose changes are transitions: what the differ compares.
public struct ItemSnapshot: Sendable, Equatable, Codable {
    public var result: String?
    public var resultFinal: Bool
    public var flag: String

    public init(result: String?, resultFinal: Bool, flag: String) {
        self.result = result
        self.resultFinal = resultFinal
        self.flag = flag
    }
}
