import Foundation
import Logging
import PostgresNIO
public import RelayModel
import RelayDatabase

/// An operator's enable or disable: a transition like the breaker's own, recorded with who made
/// it and with the deliveries `alerts` plans for it (the rules matching `target.disabled` or
/// `target.enabled`), in the transaction that changes the target. So stopping a partner's
/// notifications always leaves a row naming who did it, and tells whoever the rules say.
extension PostgresTargetHealthStore {
    /// By the target's ID or key; nil: no such target. `operatorName` is recorded as
    /// `disabled_by` and as the transition's `by`.
    public func set(_ target: String, enabled: Bool, by operatorName: String,
                    alerts: @Sendable (OperationalEvent) -> [PlannedDelivery]) async throws -> TargetHealth? {
        try await client.withTransaction(logger: logger) { tx in
            let id = Int64(target)
            if !enabled, id == nil {
                // A target never failed can still be disabled by its key.
                try await tx.query("INSERT INTO delivery_targets (key) VALUES (\(target)) ON CONFLICT (key) DO NOTHING", logger: logger)
            }
            guard let (current, now) = try await Self.lockedRow("""
                SELECT now(), \(unescaped: Self.columns) FROM delivery_targets t
                WHERE t.id = \(id) OR (\(id)::bigint IS NULL AND t.key = \(target)) FOR UPDATE
                """, on: tx, logger: logger) else { return nil }
            let next = enabled ? TargetBreaker.enabled(current, now: now) : TargetBreaker.disabled(current, by: operatorName, now: now)
            try await Self.write(next, on: tx, logger: logger)
            if let event = OperationalEvent.manual(from: current, to: next, by: operatorName, at: now) {
                _ = try await PostgresOperationalEvents.record(event, deliveries: alerts(event), on: tx, logger: logger)
                logger.notice("target \(enabled ? "enabled" : "disabled") by an operator",
                              metadata: ["target": "\(next.key)", "by": "\(operatorName)", "transition": "\(event.kind.rawValue)"])
            }
            return next
        }
    }
}
