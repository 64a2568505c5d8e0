public import Foundation
import Logging
public import PostgresNIO
public import RelayModel

/// The sync pass's state in PostgreSQL (`sync_state`): one replica at a time holds the pass
/// (a session advisory lock, released when its connection ends, so a killed replica frees
/// it), and the cursor is saved after every page, so whoever runs next resumes there.
public struct PostgresSyncStore: Sendable {
    /// The row of the item sync.
    static let name = "items"
    /// The advisory lock's key (`hashtextextended('relay-sync', 0)` would do as well; a fixed number reads plainer).
    static let lockKey: Int64 = 0x5359_4E43 // "SYNC"

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Runs `body` while holding the sync lock; nil without running it when another replica holds it.
    public func whileHoldingLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T? {
        try await AdvisoryLock(key: Self.lockKey, client: client, logger: logger).whileHeld(body)
    }

    /// The pass under way, or a new one over the widest tier of `tiers` that is due (by the
    /// database's clock), its window at most `lookback`; nil when no tier is due. A pass
    /// interrupted more than a day ago starts over instead of resuming.
    public func resumeOrStart(tiers: SyncTiers, lookback: Duration) async throws -> SyncPass? {
        // Only the lock holder gets here, so these need no transaction of their own.
        try await client.query("INSERT INTO sync_state (name) VALUES (\(Self.name)) ON CONFLICT (name) DO NOTHING", logger: logger)
        let rows = try await client.query("""
            SELECT now(), tiers_completed::text, pass_started_at IS NOT NULL AND pass_started_at >= now() - interval '1 day'
            FROM sync_state WHERE name = \(Self.name)
            """, logger: logger)
        var found: (Date, String, Bool)?
        for try await row in rows.decode((Date, String, Bool).self) { found = row }
        guard let (now, completedText, underWay) = found else { throw StoreError.missingResult }
        if !underWay {
            guard let tier = tiers.due(now: now, lastCompleted: Self.dates(completedText)) else { return nil }
            try await client.query("""
                UPDATE sync_state SET pass_started_at = now(), pass_tier = \(tier.name),
                       window_start = now() - \(tiers.span(of: tier, lookback: lookback).milliseconds) * interval '1 millisecond',
                       window_end = now(), cursor = NULL, pages = 0, items_checked = 0, changes_found = 0, updated_at = now()
                WHERE name = \(Self.name)
                """, logger: logger)
        }
        guard let current = try await status().current else { throw StoreError.missingResult }
        return current
    }

    /// `{"1d": 1795000000.123, ...}`: each tier's last complete pass's start, in epoch seconds.
    static func dates(_ text: String) -> [String: Date] {
        guard case .object(let members)? = try? JSONValue.parse(Array(text.utf8)) else { return [:] }
        return members.compactMapValues { $0.doubleValue.map { Date(timeIntervalSince1970: $0) } }
    }

    /// Since when items the sync creates are news rather than history: the first pass's start.
    public func notifySince() async throws -> Date {
        let rows = try await client.query("SELECT first_started_at FROM sync_state WHERE name = \(Self.name)", logger: logger)
        for try await at in rows.decode(Date.self) { return at }
        throw StoreError.missingResult
    }

    /// Items the relay holds submitted in `since ..< until`, counted up to `atMost` (by the
    /// listing index, so the count costs at most that many index entries). Items that arrived
    /// after the pass's window ended are no sign the search missed them.
    public func itemsSubmitted(since: Date, until: Date, atMost: Int) async throws -> Int {
        let rows = try await client.query("""
            SELECT count(*)::bigint FROM (SELECT 1 FROM items WHERE listed_at >= \(since) AND listed_at < \(until) LIMIT \(atMost)) AS held
            """, logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    /// Saves progress after a page: the cursor to continue from and what the page counted.
    public func checkpoint(cursor: JSONValue?, items: Int, changes: Int) async throws {
        try await client.query("""
            UPDATE sync_state SET cursor = \(cursor?.jsonText), pages = pages + 1, items_checked = items_checked + \(items),
                   changes_found = changes_found + \(changes), updated_at = now()
            WHERE name = \(Self.name)
            """, logger: logger)
    }

    /// Ends the pass under way: it becomes the last complete pass, and the tiers it walked
    /// (`covering`: its own and every narrower one) completed when it started.
    public func finish(covering tiers: [String]) async throws {
        try await client.query("""
            UPDATE sync_state AS s SET last_started_at = pass_started_at, last_finished_at = now(), last_items_checked = items_checked,
                   last_changes_found = changes_found, pass_started_at = NULL, pass_tier = NULL, cursor = NULL, last_error = NULL, updated_at = now(),
                   tiers_completed = s.tiers_completed
                       || coalesce((SELECT jsonb_object_agg(tier, extract(epoch FROM s.pass_started_at)) FROM unnest(\(tiers)::text[]) AS tier), '{}'::jsonb)
            WHERE name = \(Self.name)
            """, logger: logger)
    }

    /// Notes why a pass stopped; it resumes from its last checkpoint next time.
    public func noteError(_ message: String) async throws {
        try await client.query("""
            UPDATE sync_state SET last_error = \(StoredText.clean(String(message.prefix(1000)))), last_error_at = now(), updated_at = now()
            WHERE name = \(Self.name)
            """, logger: logger)
    }

    /// Forgets the pass under way (its cursor was refused): the next run starts a new one.
    public func abandon() async throws {
        try await client.query("UPDATE sync_state SET pass_started_at = NULL, pass_tier = NULL, cursor = NULL WHERE name = \(Self.name)", logger: logger)
    }

    public func status() async throws -> SyncStatus {
        let rows = try await client.query("""
            SELECT last_started_at, last_finished_at, last_items_checked, last_changes_found,
                   extract(epoch FROM now() - last_finished_at)::float8, extract(epoch FROM now() - last_started_at)::float8,
                   pass_started_at, window_start, window_end, cursor, pages, items_checked, changes_found, last_error, last_error_at,
                   pass_tier, tiers_completed::text
            FROM sync_state WHERE name = \(Self.name)
            """, logger: logger)
        for try await r in rows.decode((Date?, Date?, Int?, Int?, Double?, Double?, Date?, Date?, Date?, String?, Int, Int, Int, String?, Date?,
                                        String?, String).self) {
            var current: SyncPass?
            if let started = r.6, let windowStart = r.7, let windowEnd = r.8 {
                current = SyncPass(startedAt: started, windowStart: windowStart, windowEnd: windowEnd,
                                   cursor: r.9.flatMap { try? JSONValue.parse(Array($0.utf8)) }, pages: r.10, itemsChecked: r.11, changesFound: r.12,
                                   tier: r.15)
            }
            return SyncStatus(lastStartedAt: r.0, lastFinishedAt: r.1, lastItemsChecked: r.2, lastChangesFound: r.3, lastAgeSeconds: r.4,
                              lastStartAgeSeconds: r.5, current: current, lastError: r.13, lastErrorAt: r.14, tiersCompleted: Self.dates(r.16))
        }
        return SyncStatus()
    }
}
