
/// Who a request acts for, once its token (or console session) checked out.
public struct Caller: Sendable, Equatable {
    public var tokenID: Int64
    public var name: String
    public var role: Role

    public init(tokenID: Int64, name: String, role: Role) {
        self.tokenID = tokenID
        self.name = name
        self.role = role
    }
}
