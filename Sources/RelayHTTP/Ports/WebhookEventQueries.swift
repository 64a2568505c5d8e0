import RelayCore
import RelayStore

/// The received webhooks, listed for admins.
public protocol WebhookEventQueries: Sendable {
    func list(_ query: EventListQuery) async throws -> [WebhookEventRecord]
}

extension PostgresWebhookEventRepository: WebhookEventQueries {}
