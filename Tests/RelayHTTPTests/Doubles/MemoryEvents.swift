import Foundation
@testable import RelayModel
@testable import RelayHTTP

/// One received webhook.
struct MemoryEvents: WebhookEventQueries {
    static let event = WebhookEventRecord(
        id: 1, eventType: "authentication.completed", eventID: "evt-1", entrupyID: "E1", customerItemID: "C1", state: .processed,
        duplicates: 0, verifiedBy: "standard_webhooks", clientAddress: "203.0.113.7", bodyBytes: 120,
        receivedAt: Date(timeIntervalSince1970: 1_763_000_000))

    func list(_ query: EventListQuery) async throws -> [WebhookEventRecord] {
        [Self.event]
    }

    func rejections(limit: Int) async throws -> [SignatureRejection] { [] }
}
