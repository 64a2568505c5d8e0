import Foundation
import Logging
public import PostgresNIO
import RelayDatabase
public import RelayModel
import RelayQueue

/// The outbox on PostgreSQL: deliveries, their attempts, and the `deliver` jobs that run them.
public struct PostgresDeliveryStore: Sendable {

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Newest first by (creation time, ID), by the search's filters; `cursor` (the last row's
    /// time and ID, `DeliveryRecord.pageCursor`) continues after the previous page. Every filter
    /// has an index in that order (webhook_id its unique key; rule, target and creation time
    /// their own, migration 30; item and state theirs). The statement is unnamed, so PostgreSQL
    /// plans it with the values given: a filter not given costs nothing.
    public func list(_ search: DeliverySearch, cursor: PageCursor? = nil, limit: Int) async throws -> [DeliveryRecord] {
        try await Self.records(from: client.query(try Self.listQuery(search, cursor: cursor, limit: limit), logger: logger))
    }

    /// `list`'s statement, for a caller that runs it on its own connection (an item's detail).
    static func listQuery(_ search: DeliverySearch, cursor: PageCursor?, limit: Int) throws -> PostgresQuery {
        let beforeTime = cursor?.time, beforeID = cursor.flatMap { Int64($0.key) }
        return try """
            \(unescaped: Self.recordSelect)
            WHERE (\(search.state)::text IS NULL OR d.state = \(search.state))
              AND (\(search.item)::text IS NULL OR d.entrupy_id = \(search.item))
              AND (\(search.webhookID)::text IS NULL OR d.idempotency_key = \(search.webhookID))
              AND (\(search.rule)::text IS NULL OR d.rule = \(search.rule))
              AND (\(search.target)::text IS NULL OR d.target = \(search.target))
              AND (\(search.channel?.rawValue)::text IS NULL OR d.channel = \(search.channel?.rawValue))
              AND (\(search.since)::timestamptz IS NULL OR d.created_at >= \(search.since))
              AND (\(search.until)::timestamptz IS NULL OR d.created_at < \(search.until))
              AND (\(beforeTime)::bigint IS NULL
                   OR (d.created_at, d.id) < ('epoch'::timestamptz + \(beforeTime)::bigint * interval '1 microsecond', \(beforeID)::bigint))
            ORDER BY d.created_at DESC, d.id DESC LIMIT \(limit)
            """
    }

    static func records(from rows: PostgresRowSequence) async throws -> [DeliveryRecord] {
        var records: [DeliveryRecord] = []
        for try await row in rows { records.append(try Self.record(from: row)) }
        return records
    }

    public func attempts(deliveryID: Int64) async throws -> [DeliveryAttempt] {
        try await attempts(deliveryID: deliveryID, entrupyID: nil)[deliveryID] ?? []
    }

    /// Every attempt at every delivery of an item, by delivery.
    public func attempts(entrupyID: String) async throws -> [Int64: [DeliveryAttempt]] {
        try await attempts(deliveryID: nil, entrupyID: entrupyID)
    }

    func attempts(deliveryID: Int64?, entrupyID: String?) async throws -> [Int64: [DeliveryAttempt]] {
        try await Self.attempts(from: client.query(Self.attemptsQuery(deliveryID: deliveryID, entrupyID: entrupyID), logger: logger))
    }

    /// The attempts' statement, for a caller that runs it on its own connection (an item's detail).
    static func attemptsQuery(deliveryID: Int64?, entrupyID: String?) -> PostgresQuery {
        """
            SELECT a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.outcome, a.status_code, a.smtp_reply, a.error,
                   a.response_excerpt, a.worker
            FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
            WHERE (\(deliveryID)::bigint IS NULL OR a.delivery_id = \(deliveryID))
              AND (\(entrupyID)::text IS NULL OR d.entrupy_id = \(entrupyID))
            ORDER BY a.id
            """
    }

    /// The rows of `attemptsQuery`, by delivery.
    static func attempts(from rows: PostgresRowSequence) async throws -> [Int64: [DeliveryAttempt]] {
        var attempts: [Int64: [DeliveryAttempt]] = [:]
        for try await (id, attempt, started, duration, outcome, status, reply, error, excerpt, worker)
            in rows.decode((Int64, Int, Date, Int, DeliveryState, Int?, String?, String?, String?, String?).self) {
            attempts[id, default: []].append(DeliveryAttempt(
                attempt: attempt, startedAt: started, durationMilliseconds: duration,
                outcome: outcome, statusCode: status,
                smtpReply: reply, error: error, responseExcerpt: excerpt, worker: worker))
        }
        return attempts
    }

    /// Attempts a delivery again now, keeping its idempotency key (a redrive): a waiting retry
    /// is moved to now; a dead (or stranded) delivery starts the retry schedule afresh with a
    /// new job. The attempt count goes on, so attempt numbers never repeat.
    /// A bulk redrive (`PostgresBulkRetry`).
    public func retry(_ filter: DeliveryFilter, requestedBy: String, dryRun: Bool) async throws -> BulkRetryReport {
        try await PostgresBulkRetry(client: client, logger: logger).run(filter, requestedBy: requestedBy, dryRun: dryRun)
    }

    public func retry(id: Int64) async throws -> DeliveryRetryResult {
        try await client.withTransaction(logger: logger) { tx in
            let rows = try await tx.query("SELECT state, payload_removed FROM deliveries WHERE id = \(id) FOR UPDATE", logger: logger)
            var found: (DeliveryState, String?)?
            for try await value in rows.decode((DeliveryState, String?).self) { found = value }
            guard let (state, removed) = found else { return .notFound }
            if state == .delivered { return .alreadyDelivered }
            if let removed { return .payloadRemoved(removed) }
            switch try await PostgresJobQueue.runNow(uniqueKey: DeliverJob.uniqueKey(deliveryID: id), on: tx, logger: logger) {
            case .running?:
                return .inFlight
            case .some:
                try await tx.query("UPDATE deliveries SET next_attempt_at = now(), updated_at = now() WHERE id = \(id)", logger: logger)
            case nil:
                try await tx.query("""
                    UPDATE deliveries SET state = CASE WHEN state IN (\(DeliveryState.dead), \(DeliveryState.silenced)) THEN \(DeliveryState.pending) ELSE state END,
                           schedule_base = attempts, next_attempt_at = now(), updated_at = now()
                    WHERE id = \(id)
                    """, logger: logger)
                try await PostgresJobQueue.enqueue([try DeliverJob(deliveryID: id).job()], on: tx, logger: logger)
            }
            return .queued
        }
    }
}
