public import Foundation
public import RelayCore

/// An erasure: as it ran (`POST /v1/erasures`, `GET /v1/erasures`) or would run (a dry run).
/// Counts rows per kind; never the key or anything erased.
public struct APIErasure: Encodable, Sendable {
    @AlwaysPresent var id: Int64?
    let dryRun: Bool
    @AlwaysPresent var requestedAt: Date?
    let requestedBy: String
    let selector: String
    let counts: [String: Int]

    enum CodingKeys: String, CodingKey {
        case id, dryRun = "dry_run", requestedAt = "requested_at", requestedBy = "requested_by", selector, counts
    }

    public init(_ record: ErasureRecord) {
        id = record.id
        dryRun = false
        requestedAt = record.requestedAt
        requestedBy = record.requestedBy
        selector = record.selector
        counts = Self.complete(record.counts)
    }

    public init(report: ErasureReport, selector: String, requestedBy: String) {
        id = report.id
        dryRun = report.dryRun
        requestedAt = report.at
        self.requestedBy = requestedBy
        self.selector = selector
        counts = Self.complete(report.counts)
    }

    /// Every kind, 0 where nothing was counted.
    static func complete(_ counts: [String: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: ErasureReport.kinds.map { ($0.name, counts[$0.name] ?? 0) })
    }
}
