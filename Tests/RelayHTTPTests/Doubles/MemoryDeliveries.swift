import Foundation
@testable import RelayModel
@testable import RelayHTTP

/// One dead delivery, `1`, for item `E1`.
struct MemoryDeliveries: DeliveryQueries {
    static let record = DeliveryRecord(
        id: 1, itemEventID: 1, entrupyID: "E1", rule: "notify", actionIndex: 0, channel: .webhook,
        target: "https://example.com/hook", payload: nil, signingKeyID: nil, idempotencyKey: "k1", state: .dead,
        attempts: 3, scheduleBase: 0, lastError: "HTTP 500", nextAttemptAt: nil,
        createdAt: Date(timeIntervalSince1970: 1_763_000_000), deliveredAt: nil, transition: "result.final")

    func list(_ search: DeliverySearch, cursor: PageCursor?, limit: Int) async throws -> [DeliveryRecord] {
        search.webhookID == nil || search.webhookID == Self.record.idempotencyKey ? [Self.record] : []
    }

    func delivery(id: Int64) async throws -> DeliveryRecord? {
        id == 1 ? Self.record : nil
    }

    func retry(id: Int64) async throws -> DeliveryRetryResult {
        id == 1 ? .queued : .notFound
    }

    func retry(_ filter: DeliveryFilter, requestedBy: String, dryRun: Bool) async throws -> BulkRetryReport {
        let matched = filter.rule == nil || filter.rule == Self.record.rule ? 1 : 0
        return BulkRetryReport(id: dryRun ? nil : 7, dryRun: dryRun, matched: matched, queued: dryRun ? 0 : matched, skipped: 0)
    }
}
