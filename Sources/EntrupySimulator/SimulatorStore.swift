import Foundation
import Synchronization

/// The simulator's whole state behind one lock: items, SDK users, behaviour knobs, counters,
/// the per-token rate buckets and the seeded random generator every random choice draws from.
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
        /// Every item's (submission time, Entrupy ID), ascending: search walks it from the top
        /// instead of sorting every item per page (200,000 items of history, thousands of pages).
        var bySubmission: [SubmissionKey] = []
        var users: [String: SDKUser] = [:]
        var behaviour = SimulatorBehaviour()
        var stats = SimulatorStats()
        var buckets: [String: Bucket] = [:]
        var window = RequestRateWindow()
        var sequence = 0
        var random: SeededGenerator
        /// Where new items' photos point (`SimItem.media`).
        var media = SimItem.mediaBase
    }

    let organisation: String
    private let state: Mutex<State>

    init(organisation: String, seed: UInt64?) {
        self.organisation = organisation
        var entropy = SystemRandomNumberGenerator()
        state = Mutex(State(random: SeededGenerator(seed: seed ?? entropy.next())))
    }

    /// Sets where items made from now on point their photos and certificates (the server's
    /// own `http://host:port/_sim/media`, once it listens).
    func setMedia(_ base: String) {
        state.withLock { $0.media = base }
    }

    /// Now, in epoch seconds to the millisecond (what items and search compare).
    static func now() -> Double { (Date().timeIntervalSince1970 * 1000).rounded() / 1000 }

    var behaviour: SimulatorBehaviour { state.withLock { $0.behaviour } }

    var stats: SimulatorStats {
        state.withLock { state in
            var stats = state.stats
            stats.items = state.items.count
            stats.peakAPIRate = state.window.peak
            return stats
        }
    }

    /// Zeroes the counters and the peak rate; items and settings stay.
    func resetStats() {
        state.withLock { state in
            state.stats = SimulatorStats()
            state.window = RequestRateWindow()
        }
    }

    /// The settings in force, as `POST /_sim/config` echoes them.
    var configuration: SimJSON { state.withLock { Self.configuration(of: $0) } }

    /// Reads a change against the behaviour in force and applies it, in one step so two
    /// callers cannot lose each other's settings. Nothing changes when `read` throws.
    func reconfigure(_ read: (SimulatorBehaviour) throws(SimInputError) -> ConfigChange) throws(SimInputError) -> SimJSON {
        try state.withLock { state throws(SimInputError) in
            let change = try read(state.behaviour)
            state.behaviour = change.behaviour
            if let seed = change.seed { state.random = SeededGenerator(seed: seed) }
            return Self.configuration(of: state)
        }
    }

    private static func configuration(of state: State) -> SimJSON {
        var members = state.behaviour.json
        members["seed"] = .int(Int64(bitPattern: state.random.seed))
        return .object(members)
    }

    func count(_ change: (inout SimulatorStats) -> Void) {
        state.withLock { change(&$0.stats) }
    }

    /// A random choice made under the lock, from the seeded generator and the knobs in force.
    func draw<T>(_ choose: (inout SeededGenerator, SimulatorBehaviour) -> T) -> T {
        state.withLock { state in choose(&state.random, state.behaviour) }
    }

    /// Counts an API request (not `/_sim`) for the totals, the per-route counts and the peak rate.
    func recordAPIRequest(route: String) {
        // The arrival time is read before waiting for the lock: a request that waited must not count as arriving later.
        let arrived = Date().timeIntervalSince1970
        state.withLock { state in
            state.stats.requests += 1
            state.stats.apiRequestsByRoute[route, default: 0] += 1
            state.window.record(at: arrived)
        }
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
            var variant = state.behaviour.variantMix ? ItemVariant.random(using: &state.random) : .plain
            if let style = draft.flagStyle { variant.flagStyle = style }
            if let omit = draft.omitFinal { variant.omitFinal = omit }
            // A random omission is only taken where the stored finality is what the rule implies.
            if draft.omitFinal == nil, draft.final != ResultCatalogue.isFinalWhenUnstated(draft.result) { variant.omitFinal = false }
            let captureSeconds = Double(Int.random(in: 20_000...300_000, using: &state.random)) / 1000
            var item = SimItem(
                entrupyID: id, customerItemID: draft.customerItemID, orderID: draft.orderID, styleCode: draft.styleCode,
                size: draft.size, upc: draft.upc, serial: draft.serial, brand: draft.brand, model: draft.model,
                category: draft.category, formFactor: draft.formFactor, username: draft.username, organisation: organisation,
                result: draft.result, final: draft.final, resultReason: draft.resultReason, reasons: draft.reasons,
                initialResult: draft.result, initialFinal: draft.final,
                flag: "none", flagInfo: nil, isFlaggable: true, photos: draft.photos, variant: variant, transferID: nil,
                captureStartedAt: ((now - captureSeconds) * 1000).rounded() / 1000, submittedAt: now, initialResultSetAt: now, resultReturnedAt: now,
                lastUpdatedAt: now, visibleAt: now + Double(state.behaviour.visibilityDelayMilliseconds) / 1000, sequence: state.sequence
            )
            item.media = state.media
            state.items[id] = item
            state.byCustomer[draft.customerItemID, default: []].append(id)
            Self.index(SubmissionKey(submittedAt: item.submittedAt, entrupyID: id), in: &state.bySubmission)
            return item
        }
    }

    /// Makes `count` final items submitted evenly over the `days` before now, without webhooks:
    /// an organisation's history, for the sync's benchmark. Visible at once.
    func createHistory(count: Int, days: Double, prefix: String) -> Int {
        state.withLock { state in
            let now = Self.now()
            let results = ["authentic", "authentic", "authentic", "unknown", "not_supported"]
            let categories = ["sneakers", "luxury", "apparel"]
            for n in 0..<count {
                state.sequence += 1
                let id = SimIdentifier.entrupyID(sequence: state.sequence)
                let submitted = ((now - days * 86_400 * Double(count - n) / Double(count)) * 1000).rounded() / 1000
                let result = results[n % results.count], category = categories[n % categories.count]
                var item = SimItem(
                    entrupyID: id, customerItemID: "\(prefix)\(n)", orderID: nil, styleCode: nil, size: nil, upc: nil, serial: nil,
                    brand: "nike", model: nil, category: category, formFactor: ItemDraft.formFactor(for: category), username: organisation + "-user",
                    organisation: organisation, result: result, final: true, resultReason: nil, reasons: [], initialResult: result, initialFinal: true,
                    flag: "none", flagInfo: nil, isFlaggable: true, photos: 1, variant: .plain, transferID: nil,
                    captureStartedAt: submitted - 60, submittedAt: submitted, initialResultSetAt: submitted + 30, resultReturnedAt: submitted + 30,
                    lastUpdatedAt: submitted + 30, visibleAt: submitted, sequence: state.sequence)
                item.media = state.media
                state.items[id] = item
                state.byCustomer[item.customerItemID, default: []].append(id)
                state.bySubmission.append(SubmissionKey(submittedAt: submitted, entrupyID: id))
            }
            state.bySubmission.sort()
            return count
        }
    }

    /// Inserts in order; items made now land at the end.
    private static func index(_ key: SubmissionKey, in keys: inout [SubmissionKey]) {
        guard let last = keys.last, key < last else {
            keys.append(key)
            return
        }
        keys.insert(key, at: firstIndex(notBelow: key, in: keys))
    }

    /// The first index whose key is not below `key` (binary search over the sorted keys).
    private static func firstIndex(notBelow key: SubmissionKey, in keys: [SubmissionKey]) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Visible items newest first, submitted within `start ... end` and before `below` (the
    /// cursor's key, exclusive), handed to `body` until it returns false.
    func newestFirst(below: SubmissionKey?, start: Double?, end: Double?, _ body: (SimItem) -> Bool) {
        state.withLock { state in
            let now = Self.now()
            let keys = state.bySubmission
            // The first index past the page's upper bound: the cursor, or the end of the window.
            let upper: SubmissionKey? = below ?? end.map { SubmissionKey(submittedAt: $0, entrupyID: "\u{10FFFF}") }
            let low = upper.map { Self.firstIndex(notBelow: $0, in: keys) } ?? keys.count
            var index = low - 1
            while index >= 0 {
                let key = keys[index]
                index -= 1
                if let end, key.submittedAt > end { continue }
                if let start, key.submittedAt < start { break }
                guard let item = state.items[key.entrupyID], item.isVisible(at: now) else { continue }
                if !body(item) { break }
            }
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

    /// An item as the API sees it: nil while it is not yet visible.
    func visibleItem(_ id: String) -> SimItem? {
        state.withLock { state in state.items[id].flatMap { $0.isVisible(at: Self.now()) ? $0 : nil } }
    }

    func item(_ id: String) -> SimItem? { state.withLock { $0.items[id] } }

    /// The latest visible authentication for a customer item ID.
    func lookup(customerItemID: String) -> SimItem? {
        lookupAll(customerItemID: customerItemID).last
    }

    /// Every visible authentication of the customer item ID, oldest first.
    func lookupAll(customerItemID: String) -> [SimItem] {
        state.withLock { state in
            let now = Self.now()
            return (state.byCustomer[customerItemID] ?? []).compactMap { state.items[$0] }.filter { $0.isVisible(at: now) }
                .sorted { ($0.submittedAt, $0.entrupyID) < ($1.submittedAt, $1.entrupyID) }
        }
    }

    func visibleItems() -> [SimItem] {
        state.withLock { state in
            let now = Self.now()
            return state.items.values.filter { $0.isVisible(at: now) }
        }
    }

    /// Every item, visible or not, ordered by Entrupy ID: the ground truth.
    func allItems() -> [SimItem] {
        // Copied under the lock, sorted outside it: with 200,000 items a sort under the lock held
        // every API request back for a while, then let them through in a burst the peak rate counted.
        let items = state.withLock { state in Array(state.items.values) }
        return items.sorted { $0.entrupyID < $1.entrupyID }
    }

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
