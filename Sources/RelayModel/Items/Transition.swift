/// One change between two observations of an item: `from` and `to` are the values of the
/// field the kind is about (the result ID, or the flag).
public struct Transition: Sendable, Equatable, Codable {
    public var kind: TransitionKind
    public var from: String?
    public var to: String?

    public init(kind: TransitionKind, from: String?, to: String?) {
        self.kind = kind
        self.from = from
        self.to = to
    }
}
