import Foundation
import Logging
import PostgresNIO
public import RelayModel
public import RelayDatabase
public import RelayQueue

/// An attempt at a delivery and the delivery's new state, written by the statement that
/// finishes (or reschedules) its job: the delivery row and its job never disagree. Applies
/// only when the delivery still has the attempt count the attempt was made on, so a run that
/// lost its lease cannot record the same attempt twice.
public struct DeliveryAttemptWrite: JobRecordWrite, Equatable {
    public var deliveryID: Int64
    public var attempt: DeliveryAttempt
    /// The wait before the next attempt when the outcome is `failed`.
    public var retryIn: Duration?
    /// It failed for reasons of its own (`FailureCause.delivery`): an open target's probe is
    /// chosen among the other held deliveries first.
    public var ownFailure: Bool

    public init(deliveryID: Int64, attempt: DeliveryAttempt, retryIn: Duration?, ownFailure: Bool = false) {
        self.deliveryID = deliveryID
        self.attempt = attempt
        self.retryIn = retryIn
        self.ownFailure = ownFailure
    }

    public static let recordName = "delivery_attempt"

    public static func writeText(named name: String) -> String {
        """
            ,
            \(name)_input AS (SELECT * FROM unnest(:\(name)_ids::bigint[], :\(name)_attempts::int[], :\(name)_outcomes::text[],
                                                  :\(name)_retry_ms::bigint[], :\(name)_started_at::timestamptz[],
                                                  :\(name)_duration_ms::int[], :\(name)_status_codes::int[], :\(name)_smtp_replies::text[],
                                                  :\(name)_errors::text[], :\(name)_excerpts::text[], :\(name)_workers::text[],
                                                  :\(name)_own_failures::bool[])
                AS i (id, attempt, outcome, retry_ms, started_at, duration_ms, status_code, smtp_reply, error, excerpt, worker, own_failure)),
            \(name)_updated AS (
                UPDATE deliveries d SET state = i.outcome, attempts = i.attempt, last_error = nullif(i.error, ''),
                       next_attempt_at = CASE WHEN i.outcome = \(DeliveryState.failed.sqlLiteral) THEN now() + i.retry_ms * interval '1 millisecond' END,
                       delivered_at = CASE WHEN i.outcome = \(DeliveryState.delivered.sqlLiteral) THEN now() ELSE d.delivered_at END,
                       held_since = NULL, own_failure = i.own_failure, updated_at = now(), held_behind = NULL
                FROM \(name)_input i
                WHERE d.id = i.id AND d.attempts = i.attempt - 1 AND \(attemptable("d"))
                RETURNING d.id, d.state),\(releaseText(named: name, settled: "SELECT id FROM \(name)_updated WHERE state IN (\(DeliveryState.delivered.sqlLiteral), \(DeliveryState.dead.sqlLiteral))", attempted: "SELECT id FROM \(name)_input"))
            \(name) AS (
                INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, smtp_reply,
                                               error, response_excerpt, worker)
                SELECT i.id, i.attempt, i.started_at, i.duration_ms, i.outcome, nullif(i.status_code, -1), nullif(i.smtp_reply, ''),
                       nullif(i.error, ''), nullif(i.excerpt, ''), nullif(i.worker, '')
                FROM \(name)_input i JOIN \(name)_updated u ON u.id = i.id
                RETURNING delivery_id)
            """
    }

    /// Order per item and target: the deliveries held behind one this settles (`settled`: a
    /// query of the IDs recorded delivered, dead or silenced) are released, and their jobs woken
    /// now, not at their recheck. Found through deliveries_held_behind, which holds only held
    /// deliveries (migration 0040); a delivery this batch writes itself (`attempted`) is left to
    /// its own write.
    static func releaseText(named name: String, settled: String, attempted: String) -> String {
        """

            \(name)_released AS (
                UPDATE deliveries n SET held_behind = NULL, next_attempt_at = now()
                FROM (\(settled)) AS u (id)
                WHERE n.held_behind = u.id AND n.id NOT IN (\(attempted))
                RETURNING n.id),
            \(name)_woken AS (
                UPDATE jobs j SET scheduled_at = now() FROM \(name)_released r
                WHERE j.unique_key = '\(DeliverJob.uniqueKeyPrefix)' || r.id
                  AND j.state IN (\(JobState.claimable.map(\.sqlLiteral).joined(separator: ", ")))
                RETURNING pg_notify('\(PostgresJobQueue.channel)', '')),
        """
    }

    /// That `alias`'s delivery may be attempted (pending or failed), written so that no index
    /// on `state` can serve it: the rows are found by ID. The plan PostgreSQL keeps for these
    /// statements guesses ten input rows, and while its statistics said few deliveries were
    /// unsettled it read every unsettled one (a partial index on them) into a hash join, for
    /// each batch: 580 buffers a batch when a burst had left thousands pending (the notify
    /// benchmark), and as many as a failing target has queued once its statistics are stale.
    static func attemptable(_ alias: String) -> String {
        "coalesce(\(alias).state, '') IN (\(DeliveryState.pending.sqlLiteral), \(DeliveryState.failed.sqlLiteral))"
    }

    public static func setValues(_ batch: [DeliveryAttemptWrite], named name: String, in values: inout NamedBindings) {
        let attempts = batch.map(\.attempt)
        values.set(name + "_ids", batch.map(\.deliveryID))
        values.set(name + "_attempts", attempts.map(\.attempt))
        values.set(name + "_outcomes", attempts.map(\.outcome.rawValue))
        values.set(name + "_retry_ms", batch.map { $0.retryIn?.milliseconds ?? 0 })
        values.set(name + "_started_at", attempts.map(\.startedAt))
        values.set(name + "_duration_ms", attempts.map(\.durationMilliseconds))
        values.set(name + "_status_codes", attempts.map { $0.statusCode ?? -1 })
        values.set(name + "_smtp_replies", attempts.map { text($0.smtpReply, 1000) })
        values.set(name + "_errors", attempts.map { text($0.error, 2000) })
        values.set(name + "_excerpts", attempts.map { text($0.responseExcerpt, 1000) })
        values.set(name + "_workers", attempts.map { text($0.worker, 200) })
        values.set(name + "_own_failures", batch.map(\.ownFailure))
    }

    /// Peer text as stored: never NUL, bounded.
    private static func text(_ value: String?, _ limit: Int) -> String {
        StoredText.clean(value ?? "", maxCharacters: limit)
    }
}
