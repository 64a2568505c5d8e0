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
        var updated: Double
    }

    struct State {
        var items: [String: SimItem] = [:]
        /// Entrupy IDs per customer item ID, in creation order.
        var byCustomer: [String: [String]] = [:]
        var users: [String: SDKUser] = [:]
        var behaviour = SimulatorBehaviour()
        var stats = SimulatorStats()
        var buckets: [String: Bucket] = [:]
        var sequence = 0
    }

    let organisation: String
    private let state: Mutex<State>

    init(organisation: String) {
        self.organisation = organisation
        state = Mutex(State())
    }

    /// Now, in epoch seconds to the millisecond (what items and search compare).
    static func now() -> Double { (Date().timeIntervalSince1970 * 1000).rounded() / 1000 }

    var behaviour: SimulatorBehaviour { state.withLock { $0.behaviour } }

    var stats: SimulatorStats {
        state.withLock { state in
            var stats = state.stats
            stats.items = state.items.count
            return stats
        }
    }

    /// Reads a change against the behaviour in force and applies it, in one step so two
    /// callers cannot lose each other's settings. Nothing changes when `read` throws.
    func reconfigure(_ read: (SimulatorBehaviour) throws(SimInputError) -> ConfigChange) throws(SimInputError) -> SimJSON {
        try state.withLock { state throws(SimInputError) in
            let change = try read(state.behaviour)
            state.behaviour = change.behaviour
            return .object(state.behaviour.json)
        }
    }

    func count(_ change: (inout SimulatorStats) -> Void) {
        state.withLock { change(&$0.stats) }
    }

    /// Takes one request from `token`'s bucket; false when the limit is exceeded.
    func admit(token: String) -> Bool {
        state.withLock { state in
            let rate = state.behaviour.rateLimitPerSecond
            guard rate > 0 else { return true }
            let now = Date().timeIntervalSince1970
            var bucket = state.buckets[token] ?? Bucket(tokens: max(rate, 1), updated: now)
            bucket.tokens = min(max(rate, 1), bucket.tokens + max(0, now - bucket.updated) * rate)
            bucket.updated = now
            let admitted = bucket.tokens >= 1
            if admitted { bucket.tokens -= 1 }
            state.buckets[token] = bucket
            return admitted
        }
    }

    func create(_ draft: ItemDraft) -> SimItem {
        state.withLock { state in
            let now = Self.now()
            state.sequence += 1
            let id = SimIdentifier.entrupyID(sequence: state.sequence)
            var variant = ItemVariant.plain
            if let style = draft.flagStyle { variant.flagStyle = style }
            if let omit = draft.omitFinal { variant.omitFinal = omit }
            let captureSeconds = Double(Int.random(in: 20_000...300_000)) / 1000
            let item = SimItem(
                entrupyID: id, customerItemID: draft.customerItemID, orderID: draft.orderID, styleCode: draft.styleCode,
                size: draft.size, upc: draft.upc, serial: draft.serial, brand: draft.brand, model: draft.model,
                category: draft.category, formFactor: draft.formFactor, username: draft.username, organisation: organisation,
                result: draft.result, final: draft.final, resultReason: draft.resultReason, reasons: draft.reasons,
                flag: "none", flagInfo: nil, isFlaggable: true, photos: draft.photos, variant: variant, transferID: nil,
                captureStartedAt: ((now - captureSeconds) * 1000).rounded() / 1000, submittedAt: now, initialResultSetAt: now, resultReturnedAt: now,
                sequence: state.sequence
            )
            state.items[id] = item
            state.byCustomer[draft.customerItemID, default: []].append(id)
            return item
        }
    }

    /// Changes an item (given the time now); nil when there is no such item.
    func modify(_ id: String, _ change: (inout SimItem, Double) -> Void) -> SimItem? {
        state.withLock { state in
            guard var item = state.items[id] else { return nil }
            change(&item, Self.now())
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
            (state.byCustomer[customerItemID] ?? []).compactMap { state.items[$0] }
                .max { ($0.submittedAt, $0.entrupyID) < ($1.submittedAt, $1.entrupyID) }
        }
    }

    func allItems() -> [SimItem] { state.withLock { Array($0.items.values) } }

    /// Registers or checks an SDK user; `conflict` when the stored details differ from these.
    func authorize(uniqueUserID: String, user: SDKUser) -> (username: String, conflict: Bool) {
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
