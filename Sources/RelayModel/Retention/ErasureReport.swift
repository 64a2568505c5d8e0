public import Foundation

/// What an erasure removed or redacted (or, in a dry run, would), table by table: the counts an
/// erasure record keeps, never what was erased.
public struct ErasureReport: Sendable, Equatable {
    /// Rows per kind, in `ErasureReport.kinds` order.
    public var counts: [String: Int]
    public var dryRun: Bool
    /// The erasure record's ID (nil for a dry run).
    public var id: Int64?
    public var at: Date?
    /// Keys remembered so that what is fetched for them later is stored without the people
    /// fields (usernames, Entrupy user IDs and IDs, a customer item ID; hashed, never kept as
    /// they are). A dry run counts those it found; a run, those not remembered before.
    public var rememberedKeys: Int

    /// The kinds counted, and what each means.
    public static let kinds: [(name: String, meaning: String)] = [
        ("sdk_users", "SDK users mirror rows deleted"),
        ("items", "items whose people fields were removed (the result, flag and timeline stay)"),
        ("webhook_bodies", "webhook bodies and headers removed"),
        ("delivery_payloads", "delivery payloads removed"),
        ("delivery_replies", "delivery attempts whose replies were removed"),
        ("deliveries_cancelled", "pending deliveries cancelled (they would have sent it again)"),
        ("reconciliation_notes", "reconciliation notes removed"),
        ("flag_comments", "comments of flags raised from the relay removed (the flag, its reason and answer stay)"),
    ]

    public init(counts: [String: Int], dryRun: Bool, id: Int64? = nil, at: Date? = nil, rememberedKeys: Int = 0) {
        self.counts = counts
        self.dryRun = dryRun
        self.id = id
        self.at = at
        self.rememberedKeys = rememberedKeys
    }

    public var total: Int { counts.values.reduce(0, +) }

    /// Whether it found anything stored to erase.
    public var outcome: ErasureOutcome { total == 0 ? .matchedNothing : .erased }
}
