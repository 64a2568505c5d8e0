public import Foundation
public import RelayModel

/// An erasure: as it ran (`POST /v1/erasures`, `GET /v1/erasures`) or would run (a dry run).
/// Counts rows per kind; never the key or anything erased.
public struct APIErasure: Encodable, Sendable {
    @AlwaysPresent var id: Int64?
    let dryRun: Bool
    @AlwaysPresent var requestedAt: Date?
    let requestedBy: String
    let selector: String
    let counts: [String: Int]
    /// `erased`, or `matched_nothing` when nothing stored matched the key.
    let outcome: String
    /// Keys remembered so later fetches store no people fields (a run's answer only; nil in the list).
    @AlwaysPresent var rememberedKeys: Int?

    enum CodingKeys: String, CodingKey {
        case id, dryRun = "dry_run", requestedAt = "requested_at", requestedBy = "requested_by", selector, counts, outcome
        case rememberedKeys = "remembered_keys"
    }

    public init(_ record: ErasureRecord) {
        id = record.id
        dryRun = false
        requestedAt = record.requestedAt
        requestedBy = record.requestedBy
        selector = record.selector
        counts = Self.complete(record.counts)
        outcome = record.outcome.rawValue
        rememberedKeys = nil
    }

    public init(report: ErasureReport, selector: String, requestedBy: String) {
        id = report.id
        dryRun = report.dryRun
        requestedAt = report.at
        self.requestedBy = requestedBy
        self.selector = selector
        counts = Self.complete(report.counts)
        outcome = report.outcome.rawValue
        rememberedKeys = report.rememberedKeys
    }

    /// Every kind, 0 where nothing was counted.
    static func complete(_ counts: [String: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: ErasureReport.kinds.map { ($0.name, counts[$0.name] ?? 0) })
    }
}
