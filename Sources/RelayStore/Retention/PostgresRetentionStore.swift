public import Foundation
import Logging
public import PostgresNIO
public import RelayModel

/// Removes what a retention setting names, a bounded batch at a time: each batch is one short
/// statement that finds its rows through an index (for bodies and payloads one that holds only
/// rows still to prune; for fetch records the table's oldest rows by ID), skips rows another transaction holds (`SKIP LOCKED`: a delivery being
/// redriven, a webhook being reconciled), and never touches a webhook still queued or a
/// delivery not finished. Statements are in `PostgresRetentionStore+Statements.swift`.
public struct PostgresRetentionStore: Sendable {
    /// The advisory lock one replica holds while it prunes.
    static let lockKey: Int64 = 0x5052_554E // "PRUN"

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Prunes up to `limit` rows of `kind` older than `cutoff`; answers how many went and, when
    /// `measuringWAL`, the bytes of write-ahead log written meanwhile (the whole cluster's: the
    /// batch's, and whatever else was written during its few milliseconds), which paces the
    /// pruner. Nil when not measured, or when this server will not tell its WAL position (some
    /// managed services refuse WAL functions): pruning goes on without it.
    public func pruneBatch(_ kind: RetentionKind, before cutoff: Date, limit: Int,
                           measuringWAL: Bool) async throws -> (rows: Int, walBytes: Int64?) {
        let logger = self.logger
        return try await client.withConnection { connection in
            let start = measuringWAL ? try? await Self.walPosition(on: connection, logger: logger) : nil
            var count = 0
            for try await rows in try await connection.query(Self.pruneQuery(kind, before: cutoff, limit: limit), logger: logger)
                .decode(Int.self) { count = rows }
            guard let start, let end = try? await Self.walPosition(on: connection, logger: logger) else { return (count, nil) }
            return (count, max(0, end - start))
        }
    }

    /// Where PostgreSQL's write-ahead log is being written, in bytes from its start.
    static func walPosition(on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        for try await position in try await connection.query("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint",
                                                              logger: logger).decode(Int64.self) {
            return position
        }
        return 0
    }

    /// What pruning `kind` at `cutoff` would remove now: rows, and an estimate of the bytes;
    /// with `notBefore`, only rows made since then (webhook bodies whose rows go first).
    public func estimate(_ kind: RetentionKind, before cutoff: Date, notBefore: Date? = nil) async throws -> RetentionEstimate {
        let rows = try await client.query(Self.estimateQuery(kind, before: cutoff, notBefore: notBefore), logger: logger)
        for try await (count, bytes) in rows.decode((Int, Int64).self) {
            return RetentionEstimate(kind: kind, rows: count, bytes: bytes)
        }
        return RetentionEstimate(kind: kind, rows: 0, bytes: 0)
    }

    /// When the oldest row still holding what `kind` removes was made (nil: none).
    public func oldest(_ kind: RetentionKind) async throws -> Date? {
        let rows = try await client.query(Self.oldestQuery(kind), logger: logger)
        for try await date in rows.decode(Date?.self) { return date }
        return nil
    }

    /// The database's clock (cutoffs are counted from it, as every stored time was).
    public func now() async throws -> Date {
        let rows = try await client.query("SELECT now()", logger: logger)
        for try await date in rows.decode(Date.self) { return date }
        return Date()
    }

    /// Runs `body` while holding the pruning lock; nil without running it when another replica holds it.
    public func whileHoldingLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T? {
        try await AdvisoryLock(key: Self.lockKey, client: client, logger: logger).whileHeld(body)
    }
}
