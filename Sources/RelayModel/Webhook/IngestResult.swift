/// What the receiver tells the sender once the event is durable.
public struct IngestResult: Sendable, Equatable {
    /// The stored event's ID (the original's, for a duplicate).
    public var id: Int64
    public var duplicate: Bool
    /// A new event whose body `id` an earlier event of the same item had, with another body:
    /// stored as its own event, and counted, since it may mean Entrupy reuses IDs.
    public var reusedEventID: Bool

    public init(id: Int64, duplicate: Bool, reusedEventID: Bool = false) {
        self.id = id
        self.duplicate = duplicate
        self.reusedEventID = reusedEventID
    }
}
