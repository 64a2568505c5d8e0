import Foundation
import RelayModel
import RelayWorker
import Synchronization

/// Targets' health in memory, applying the breaker as the store does; counts the records.
final class MemoryTargetHealth: TargetHealthTracking {
    private let state: Mutex<(targets: [String: TargetHealth], records: Int)>
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init(_ targets: [TargetHealth] = []) {
        state = Mutex((Dictionary(uniqueKeysWithValues: targets.map { ($0.key, $0) }), 0))
    }

    var records: Int { state.withLock { $0.records } }

    func target(_ key: String) -> TargetHealth? { state.withLock { $0.targets[key] } }

    func health(key: String) async throws -> (TargetHealth?, Date) {
        (state.withLock { $0.targets[key] }, now)
    }

    func record(_ outcome: TargetBreaker.Outcome, key: String, probe: Bool, breaker: TargetBreaker,
                alerts: @Sendable (OperationalEvent) -> [PlannedDelivery]) async throws -> (TargetHealth, TargetChange?) {
        state.withLock { state in
            state.records += 1
            let current = state.targets[key] ?? .healthy(key: key, at: now)
            let (next, change) = breaker.record(outcome, on: current, probe: probe, now: now)
            state.targets[key] = next
            return (next, change)
        }
    }
}
