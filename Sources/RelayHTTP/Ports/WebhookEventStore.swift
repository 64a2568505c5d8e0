public import RelayModel

/// Storage of received webhooks. The receiver depends on this, not on SQL.
public protocol WebhookEventStore: Sendable {
    /// Stores a batch in one transaction: each new event with its reconcile job, each
    /// duplicate as a count on the original. Results are in the order of `events`.
    func store(_ events: [NewWebhookEvent]) async throws -> [IngestResult]

    /// Newest first.
    func list(limit: Int) async throws -> [WebhookEventRecord]
}
