public import RelayModel

/// What the query API and the console read and do with deliveries.
public protocol DeliveryQueries: Sendable {
    func list(_ search: DeliverySearch, cursor: PageCursor?, limit: Int) async throws -> [DeliveryRecord]
    func delivery(id: Int64) async throws -> DeliveryRecord?
    func retry(id: Int64) async throws -> DeliveryRetryResult
    /// Counts (`dryRun`) or retries the deliveries `filter` names (`PostgresBulkRetry`).
    func retry(_ filter: DeliveryFilter, requestedBy: String, dryRun: Bool) async throws -> BulkRetryReport
}
