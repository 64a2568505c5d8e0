import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayQueue

/// The held backlog: which held delivery probes an open target, and how a recovered one's
/// backlog drains. Run each second by every replica's `TargetProbeService`: row locks taken with SKIP LOCKED and
/// a target's `drained_at` keep two replicas from picking one target within a second.
extension PostgresTargetHealthStore {
    /// For each open target whose probe is due and not under way, its oldest held delivery
    /// that did not last fail for reasons of its own (never attempted, or failed by the target:
    /// `own_failure`) is made its probe, or else its oldest held one (claimed until `lease` from now) and its job made to run now;
    /// either only among those that would make an attempt now (`canProbe`). Returns the deliveries picked.
    public func startProbes(lease: Duration) async throws -> [Int64] {
        try await client.withTransaction(logger: logger) { tx in
            let rows = try await tx.query("""
                WITH due AS (
                    SELECT t.key FROM delivery_targets t
                    WHERE t.state = 'open' AND t.next_probe_at <= now() AND (t.probe_until IS NULL OR t.probe_until < now())
                    FOR UPDATE SKIP LOCKED),
                picked AS (
                    SELECT due.key, oldest.id FROM due
                    -- Two arms, each walking the held index in id order; the second runs only when the first finds none.
                    CROSS JOIN LATERAL ((SELECT d.id FROM deliveries d WHERE \(unescaped: Self.heldFor("due.key")) AND NOT d.own_failure
                                           AND \(unescaped: Self.canProbe) ORDER BY d.id LIMIT 1)
                                        UNION ALL
                                        (SELECT d.id FROM deliveries d WHERE \(unescaped: Self.heldFor("due.key")) AND \(unescaped: Self.canProbe)
                                         ORDER BY d.id LIMIT 1)
                                        LIMIT 1) oldest)
                UPDATE delivery_targets t SET probe_delivery_id = picked.id,
                       probe_until = now() + \(lease.milliseconds) * interval '1 millisecond', updated_at = now()
                FROM picked WHERE t.key = picked.key
                RETURNING picked.id
                """, logger: logger)
            var picked: [Int64] = []
            for try await id in rows.decode(Int64.self) { picked.append(id) }
            // Ahead of any backlog: a probe that waited behind it past its claim would never run as one.
            _ = try await PostgresJobQueue.runSoon(uniqueKeys: picked.map(DeliverJob.uniqueKey(deliveryID:)), spacing: .zero,
                                                    ahead: true, on: tx, logger: logger)
            try await Self.enqueueMissing(picked, on: tx, logger: logger)
            return picked
        }
    }

    /// That a held delivery `d` would make an attempt when its job runs now: not in its rule's
    /// quiet hours, nor held behind an earlier delivery of its item (both snooze before the
    /// breaker's admission, so such a probe would expire unattempted and be picked again, and
    /// the target stay open all night). Filters on the rows the held index finds.
    static let canProbe = "coalesce(d.quiet_until <= now(), true) AND d.held_behind IS NULL"

    /// Releases up to `perTarget` held deliveries of each healthy target, oldest first, their
    /// jobs spread `spacing` apart: a recovered target's backlog drains at a bounded rate.
    /// Returns how many were released.
    public func drain(perTarget: Int, spacing: Duration) async throws -> Int {
        try await client.withTransaction(logger: logger) { tx in
            let rows = try await tx.query("""
                WITH ready AS (
                    SELECT t.key FROM delivery_targets t
                    WHERE t.state = 'healthy' AND (t.drained_at IS NULL OR t.drained_at <= now() - interval '950 milliseconds')
                      AND EXISTS (SELECT 1 FROM deliveries d WHERE \(unescaped: Self.heldFor("t.key")))
                    FOR UPDATE SKIP LOCKED),
                stamped AS (UPDATE delivery_targets t SET drained_at = now() FROM ready WHERE t.key = ready.key RETURNING t.key),
                picked AS (
                    SELECT held.id FROM ready
                    CROSS JOIN LATERAL (SELECT d.id FROM deliveries d WHERE \(unescaped: Self.heldFor("ready.key"))
                                        ORDER BY d.id LIMIT \(perTarget) FOR UPDATE OF d SKIP LOCKED) held)
                UPDATE deliveries d SET held_since = NULL, next_attempt_at = now(), updated_at = now()
                FROM picked WHERE d.id = picked.id
                RETURNING d.id
                """, logger: logger)
            var released: [Int64] = []
            for try await id in rows.decode(Int64.self) { released.append(id) }
            released.sort()
            _ = try await PostgresJobQueue.runSoon(uniqueKeys: released.map(DeliverJob.uniqueKey(deliveryID:)), spacing: spacing,
                                                    on: tx, logger: logger)
            try await Self.enqueueMissing(released, on: tx, logger: logger)
            return released.count
        }
    }

    /// A deliver job for each delivery that has none live (one spent by database errors, say):
    /// a released or probing delivery must never be left without one. Those with a live job
    /// are skipped by the job's unique key.
    static func enqueueMissing(_ ids: [Int64], on connection: PostgresConnection, logger: Logger) async throws {
        guard !ids.isEmpty else { return }
        _ = try await PostgresJobQueue.enqueue(try ids.map { try DeliverJob(deliveryID: $0).job() }, on: connection, logger: logger)
    }
}
