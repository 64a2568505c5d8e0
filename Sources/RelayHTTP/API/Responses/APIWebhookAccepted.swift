import RelayStore

/// The receiver's 200: the stored event's ID (the original's, for a duplicate).
public struct APIWebhookAccepted: Encodable, Sendable {
    let id: Int64
    let duplicate: Bool

    public init(_ result: IngestResult) {
        id = result.id
        duplicate = result.duplicate
    }
}
