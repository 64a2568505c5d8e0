public import RelayModel

/// The received webhooks, listed for admins.
public protocol WebhookEventQueries: Sendable {
    func list(_ query: EventListQuery) async throws -> [WebhookEventRecord]
    /// The last webhooks refused for their signature, newest first.
    func rejections(limit: Int) async throws -> [SignatureRejection]
}
