/// What the receiver tells the sender once the event is durable.
public struct IngestResult: Sendable, Equatable {
    /// The stored event's ID (the original's, for a duplicate).
    public var id: Int64
    public var duplicate: Bool

    public init(id: Int64, duplicate: Bool) {
        self.id = id
        self.duplicate = duplicate
    }
}
