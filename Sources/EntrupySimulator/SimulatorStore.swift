import Foundation
import Synchronization

/// The simulator's whole state behind one lock: items, SDK users, behaviour knobs, counters
/// and the per-token rate buckets.
final class SimulatorStore: Sendable {
    struct SDKUser: Equatable {
        var email: String
        var firstName: String?
        var lastName: String?
    }

    struct Bucket {
        var tokens: Double
        var updated: Date
    }

    struct State {
        var items: [String: SimItem] = [:]
        var users: [String: SDKUser] = [:]
        var behaviour = SimulatorBehaviour()
        var stats = SimulatorStats()
        var buckets: [String: Bucket] = [:]
        var sequence = 0
    }

    private let state = Mutex(State())

    var behaviour: SimulatorBehaviour { state.withLock { $0.behaviour } }
    var stats: SimulatorStats { state.withLock { var s = $0.stats; s.items = $0.items.count; return s } }

    func update(_ change: (inout SimulatorBehaviour) -> Void) -> SimulatorBehaviour {
        state.withLock { change(&$0.behaviour); return $0.behaviour }
    }

    func count(_ change: (inout SimulatorStats) -> Void) {
        state.withLock { change(&$0.stats) }
    }

    /// Takes one request from `token`'s bucket; false when the limit is exceeded.
    func admit(token: String, now: Date = Date()) -> Bool {
        state.withLock { state in
            let rate = state.behaviour.rateLimitPerSecond
            guard rate > 0 else { return true }
            var bucket = state.buckets[token] ?? Bucket(tokens: max(rate, 1), updated: now)
            bucket.tokens = min(max(rate, 1), bucket.tokens + now.timeIntervalSince(bucket.updated) * rate)
            bucket.updated = now
            let admitted = bucket.tokens >= 1
            if admitted { bucket.tokens -= 1 }
            state.buckets[token] = bucket
            return admitted
        }
    }

    func create(customerItemID: String, brand: String, model: String?, category: String, username: String,
                result: String, final: Bool) -> SimItem {
        state.withLock { state in
            state.sequence += 1
            let id = "SIM" + String(format: "%010d", state.sequence) + String(UUID().uuidString.prefix(4))
            let item = SimItem(entrupyID: id, customerItemID: customerItemID, brand: brand, model: model, category: category,
                               username: username, result: result, final: final, flag: "none",
                               submittedAt: (Date().timeIntervalSince1970 * 1000).rounded() / 1000, sequence: state.sequence)
            state.items[id] = item
            return item
        }
    }

    func modify(_ id: String, _ change: (inout SimItem) -> Void) -> SimItem? {
        state.withLock { state in
            guard var item = state.items[id] else { return nil }
            change(&item)
            state.sequence += 1
            item.sequence = state.sequence
            state.items[id] = item
            return item
        }
    }

    func item(_ id: String) -> SimItem? { state.withLock { $0.items[id] } }

    /// The latest authentication for a customer item ID.
    func lookup(customerItemID: String) -> SimItem? {
        state.withLock { state in
            state.items.values.filter { $0.customerItemID == customerItemID }
                .max { ($0.submittedAt, $0.entrupyID) < ($1.submittedAt, $1.entrupyID) }
        }
    }

    func allItems() -> [SimItem] { state.withLock { Array($0.items.values) } }

    /// Registers or checks an SDK user; `conflict` when the stored details differ from these.
    func authorize(uniqueUserID: String, user: SDKUser, organisation: String) -> (username: String, conflict: Bool) {
        state.withLock { state in
            let username = organisation + "-" + uniqueUserID
            guard let existing = state.users[uniqueUserID] else {
                state.users[uniqueUserID] = user
                return (username, false)
            }
            let differs = existing.email != user.email
                || (user.firstName != nil && user.firstName != existing.firstName)
                || (user.lastName != nil && user.lastName != existing.lastName)
            return (username, differs)
        }
    }
}
