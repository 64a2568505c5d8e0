import Foundation
import Logging
import PostgresNIO
import RelayCore

/// The outbox on PostgreSQL: deliveries, their attempts, and the `deliver` jobs that run them.
public struct PostgresDeliveryRepository: Sendable {
    public static let jobKind = "deliver"

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Inserts planned deliveries and their jobs inside the caller's transaction. The unique
    /// (transition, rule, action) key makes a repeat a no-op; returns how many were new.
    @discardableResult
    public static func insert(_ planned: [PlannedDelivery], maxAttempts: Int, on connection: PostgresConnection,
                              logger: Logger) async throws -> Int {
        var created = 0
        for delivery in planned {
            let rows = try await connection.query("""
                WITH created AS (
                    INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id)
                    VALUES (\(delivery.itemEventID), \(delivery.entrupyID), \(delivery.rule), \(delivery.actionIndex),
                            \(delivery.channel.rawValue), \(delivery.target), \(delivery.payload.jsonText)::jsonb, \(delivery.signingKeyID))
                    ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING
                    RETURNING id),
                queued AS (
                    INSERT INTO jobs (kind, args, unique_key, max_attempts)
                    SELECT \(jobKind), jsonb_build_object('delivery_id', id), 'delivery:' || id, \(maxAttempts) FROM created
                    RETURNING 1)
                SELECT count(*)::int FROM created
                """, logger: logger)
            for try await count in rows.decode(Int.self) { created += count }
        }
        return created
    }

    public func delivery(id: Int64) async throws -> DeliveryRecord? {
        try await records(id: id, state: nil, entrupyID: nil, before: nil, limit: 1).first
    }

    /// Newest first, optionally filtered by state and item; `cursor` continues after the
    /// last delivery of the previous page.
    public func list(state: DeliveryState?, entrupyID: String?, cursor: PageCursor? = nil, limit: Int) async throws -> [DeliveryRecord] {
        try await records(id: nil, state: state, entrupyID: entrupyID, before: cursor?.id, limit: limit)
    }

    func records(id: Int64?, state: DeliveryState?, entrupyID: String?, before: Int64?, limit: Int) async throws -> [DeliveryRecord] {
        let rows = try await client.query("""
            SELECT d.id, d.item_event_id, d.entrupy_id, d.rule, d.action_index, d.channel, d.target, d.payload::text,
                   d.signing_key_id, d.idempotency_key, d.state, d.attempts, d.last_error, d.next_attempt_at, d.created_at,
                   d.delivered_at, e.kind
            FROM deliveries d JOIN item_events e ON e.id = d.item_event_id
            WHERE (\(id)::bigint IS NULL OR d.id = \(id))
              AND (\(state?.rawValue)::text IS NULL OR d.state = \(state?.rawValue))
              AND (\(entrupyID)::text IS NULL OR d.entrupy_id = \(entrupyID))
              AND (\(before)::bigint IS NULL OR d.id < \(before))
            ORDER BY d.id DESC LIMIT \(limit)
            """, logger: logger)
        var records: [DeliveryRecord] = []
        for try await (id, eventID, entrupyID, rule, index, channel, target, payload, keyID, key, state, attempts, lastError,
                       next, created, delivered, kind)
            in rows.decode((Int64, Int64, String, String, Int, String, String, String, String?, String, String, Int, String?,
                            Date?, Date, Date?, String).self) {
            records.append(DeliveryRecord(
                id: id, itemEventID: eventID, entrupyID: entrupyID, rule: rule, actionIndex: index,
                channel: DeliveryChannel(rawValue: channel) ?? .webhook, target: target, payload: JSONValue(jsonText: payload) ?? .null,
                signingKeyID: keyID, idempotencyKey: key, state: DeliveryState(rawValue: state) ?? .pending, attempts: attempts,
                lastError: lastError, nextAttemptAt: next, createdAt: created, deliveredAt: delivered, transition: kind))
        }
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
        let rows = try await client.query("""
            SELECT a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.outcome, a.status_code, a.smtp_reply, a.error,
                   a.response_excerpt, a.worker
            FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
            WHERE (\(deliveryID)::bigint IS NULL OR a.delivery_id = \(deliveryID))
              AND (\(entrupyID)::text IS NULL OR d.entrupy_id = \(entrupyID))
            ORDER BY a.id
            """, logger: logger)
        var attempts: [Int64: [DeliveryAttempt]] = [:]
        for try await (id, attempt, started, duration, outcome, status, reply, error, excerpt, worker)
            in rows.decode((Int64, Int, Date, Int, String, Int?, String?, String?, String?, String?).self) {
            attempts[id, default: []].append(DeliveryAttempt(
                attempt: attempt, startedAt: started, durationMilliseconds: duration,
                outcome: DeliveryState(rawValue: outcome) ?? .failed, statusCode: status,
                smtpReply: reply, error: error, responseExcerpt: excerpt, worker: worker))
        }
        return attempts
    }

    /// Stores an attempt and the delivery's new state together. `retryIn` is the wait before
    /// the next attempt when the outcome is `failed`.
    public func record(_ attempt: DeliveryAttempt, deliveryID: Int64, retryIn: Duration?) async throws {
        try await client.withTransaction(logger: logger) { tx in
            try await tx.query("""
                INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, smtp_reply,
                                               error, response_excerpt, worker)
                VALUES (\(deliveryID), \(attempt.attempt), \(attempt.startedAt), \(attempt.durationMilliseconds),
                        \(attempt.outcome.rawValue), \(attempt.statusCode), \(attempt.smtpReply.map { String($0.prefix(1000)) }),
                        \(attempt.error.map { String($0.prefix(2000)) }), \(attempt.responseExcerpt), \(attempt.worker))
                """, logger: logger)
            try await tx.query("""
                UPDATE deliveries SET state = \(attempt.outcome.rawValue), attempts = attempts + 1,
                       last_error = \(attempt.error.map { String($0.prefix(2000)) }),
                       next_attempt_at = CASE WHEN \(attempt.outcome == .failed)
                           THEN now() + \(retryIn?.milliseconds ?? 0) * interval '1 millisecond' END,
                       delivered_at = CASE WHEN \(attempt.outcome == .delivered) THEN now() ELSE delivered_at END,
                       updated_at = now()
                WHERE id = \(deliveryID)
                """, logger: logger)
        }
    }

    /// Attempts a delivery again now, keeping its idempotency key: a waiting retry is moved to
    /// now; a dead (or stranded) delivery gets a new job with a fresh set of attempts.
    public func retry(id: Int64, maxAttempts: Int) async throws -> DeliveryRetryResult {
        try await client.withTransaction(logger: logger) { tx in
            let rows = try await tx.query("SELECT state FROM deliveries WHERE id = \(id) FOR UPDATE", logger: logger)
            var state: DeliveryState?
            for try await value in rows.decode(String.self) { state = DeliveryState(rawValue: value) }
            guard let state else { return .notFound }
            if state == .delivered { return .alreadyDelivered }
            let key = "delivery:\(id)"
            let jobs = try await tx.query("""
                SELECT state FROM jobs WHERE unique_key = \(key) AND state NOT IN ('completed', 'dead') FOR UPDATE
                """, logger: logger)
            var jobState: String?
            for try await value in jobs.decode(String.self) { jobState = value }
            if jobState == "running" { return .inFlight }
            if jobState != nil {
                try await tx.query("""
                    UPDATE jobs SET scheduled_at = now() WHERE unique_key = \(key) AND state IN ('available', 'retryable')
                    """, logger: logger)
                try await tx.query("SELECT pg_notify('relay_jobs', '')", logger: logger)
            } else {
                try await PostgresJobQueue.enqueue(
                    [NewJob(kind: Self.jobKind, args: .object(["delivery_id": .number(Double(id))]), uniqueKey: key, maxAttempts: maxAttempts)],
                    on: tx, logger: logger)
            }
            try await tx.query("""
                UPDATE deliveries SET state = CASE WHEN state = 'dead' THEN 'pending' ELSE state END,
                       next_attempt_at = now(), updated_at = now()
                WHERE id = \(id)
                """, logger: logger)
            return .queued
        }
    }
}
