public import RelayModel

/// A bulk redrive (`POST /v1/deliveries/retry`): how many deliveries the filters matched and,
/// unless a dry run, how many were queued again and skipped; the filters as recorded.
public struct APIBulkRetry: Encodable, Sendable {
    @AlwaysPresent var id: Int64?
    let dryRun: Bool
    let matched: Int
    let queued: Int
    let skipped: Int
    let filters: [String: String]

    enum CodingKeys: String, CodingKey {
        case id, dryRun = "dry_run", matched, queued, skipped, filters
    }

    public init(_ report: BulkRetryReport, filter: DeliveryFilter) {
        id = report.id
        dryRun = report.dryRun
        matched = report.matched
        queued = report.queued
        skipped = report.skipped
        filters = filter.recorded
    }
}
