/// What a bulk redrive found, and (unless a dry run) did: `matched` deliveries fitted the
/// filter; of those, `queued` will be attempted again now and the rest were `skipped` (being
/// attempted at that moment, delivered meanwhile, or their payload removed).
public struct BulkRetryReport: Sendable, Equatable {
    /// The recorded bulk action's ID; nil for a dry run.
    public var id: Int64?
    public var dryRun: Bool
    public var matched: Int
    public var queued: Int
    public var skipped: Int

    public init(id: Int64?, dryRun: Bool, matched: Int, queued: Int, skipped: Int) {
        self.id = id
        self.dryRun = dryRun
        self.matched = matched
        self.queued = queued
        self.skipped = skipped
    }
}

/// More deliveries match than one bulk redrive takes (`limit`): narrow the filter.
public struct BulkRetryTooMany: Error, Equatable, CustomStringConvertible {
    /// The most deliveries one bulk redrive takes, so that one call never runs for minutes.
    public static let limit = 10_000

    public let matched: Int

    public init(matched: Int) {
        self.matched = matched
    }

    public var description: String {
        "more than \(Self.limit) deliveries match; one bulk retry takes at most \(Self.limit): narrow it (a rule, a target, since and until)"
    }
}
