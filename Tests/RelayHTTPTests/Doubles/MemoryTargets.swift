import Foundation
import RelayModel
import RelayHTTP
import Synchronization

/// Delivery targets in memory: one open target with ID 1.
final class MemoryTargets: TargetQueries {
    private let targets = Mutex([TargetSummary(
        health: TargetHealth(id: 1, key: "https://partner.example", state: .open, stateSince: Date(timeIntervalSince1970: 1_800_000_000),
                             consecutiveFailures: 10, lastError: "HTTP 503"),
        held: 4, oldestHeldSince: Date(timeIntervalSince1970: 1_800_000_000))])

    func list() async throws -> [TargetSummary] { targets.withLock { $0 } }

    func set(_ target: String, enabled: Bool, by operatorName: String) async throws -> TargetHealth? {
        targets.withLock { targets in
            guard let index = targets.firstIndex(where: { String($0.health.id ?? 0) == target || $0.health.key == target }) else { return nil }
            let now = Date()
            targets[index].health = enabled ? TargetBreaker.enabled(targets[index].health, now: now)
                : TargetBreaker.disabled(targets[index].health, by: operatorName, now: now)
            return targets[index].health
        }
    }
}
