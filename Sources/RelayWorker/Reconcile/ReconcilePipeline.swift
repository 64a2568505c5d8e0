import EntrupyAPI
public import Foundation
public import Logging
import Metrics
public import RelayModel
import RelayRules
public import RelayQueue
import RelayRuntime
import Tracing

/// A hint becomes the truth in four steps, each one call here:
///
/// 1. **fetch** the item from the Entrupy API (the webhook is only a hint);
/// 2. **diff** it against the stored state into transitions (pure, `TransitionDiffer`);
/// 3. **plan** the deliveries the rules ask for (pure, `DeliveryPlanner`);
/// 4. **store** item, timeline, deliveries with their jobs, and the event's new state in one
///    statement, so one transaction (`PostgresReconcileStore.commit`). In a job's run the
///    caller passes the run's follow-up lease (`JobContext.followUps`): the deliveries' jobs
///    go in claimed by this worker, which sends them when the handler returns.
///
/// Answers are ordered by the database's clock: one requested before a stored one is stale
/// and changes nothing. If another worker stores the item between steps 2 and 4, the commit
/// is refused and steps 2 to 4 run again on what it stored, so a transition is never
/// recorded twice.
public struct ReconcilePipeline: Sendable {
    public enum Target: Sendable, Equatable {
        case entrupyID(String)
        case customerItemID(String)

        /// The key fetches of one item are serialised by (`KeyedLock`).
        public var lockKey: String {
            switch self {
            case .entrupyID(let id): FetchLease.entrupyIDPrefix + id
            case .customerItemID(let id): FetchLease.customerItemIDPrefix + id
            }
        }
    }

    let api: any ItemSource
    let store: any ReconcileStoring
    /// The rules in force; nil sends nothing (transitions are still recorded).
    let rules: RulesStore?
    let logger: Logger

    public init(api: any ItemSource, store: any ReconcileStoring, rules: RulesStore?, logger: Logger) {
        self.api = api
        self.store = store
        self.rules = rules
        self.logger = logger
    }

    /// Fetches the item and stores what changed. `basis`, when the caller read it just before
    /// (with the webhook event), saves reading the clock and the stored state apart. Throws
    /// `EntrupyAPIError` when the API did not answer with an item, and store errors as they come.
    /// `followUps`: the job's run's follow-up lease, which the deliveries' jobs go in under (nil: none).
    /// `releasing`: the item's fetch lease the caller holds, which the commit ends (nil: none).
    /// `overdue`: the threshold (`24h`) an overdue check asks about: `result.overdue` is recorded
    /// with the item if the answer is still not final.
    @discardableResult
    public func reconcile(_ target: Target, source: ReconcileSource, basis: ReconcileBasis? = nil,
                          followUps: FollowUpJobs?, releasing lease: FetchLease? = nil, overdue: String? = nil) async throws -> ApplyResult {
        let observedAt: Date
        if let basis { observedAt = basis.observedAt } else { observedAt = try await store.clock() }
        let item = try await fetch(target, priority: source.apiPriority)
        return try await apply(item, observedAt: observedAt, source: source, basis: basis, followUps: followUps, releasing: lease,
                               overdue: overdue)
    }

    /// Steps 2 to 4 for an item already fetched (by the search API, say) at `observedAt`;
    /// `notify: false` records the timeline without planning deliveries (history).
    public func apply(_ fetched: EntrupyItem, observedAt: Date, source: ReconcileSource, notify: Bool = true,
                      basis: ReconcileBasis? = nil, followUps: FollowUpJobs?, releasing lease: FetchLease? = nil,
                      overdue: String? = nil) async throws -> ApplyResult {
        // Everything is decided on the item as it will be stored (U+0000 made U+FFFD): diffed
        // against what is stored, and rendered into payloads PostgreSQL accepts. The fetched
        // item goes to the store only so its timeline can note what storing changed.
        let storable = fetched.storable
        // The basis describes this item only if it was read under the ID the item is stored by.
        let basisIsForItem = basis != nil && basis?.entrupyID == storable.entrupyID
        // An erasure remembered one of the item's keys (the store refused it with them).
        var namesErasedKey = false
        for round in 0..<Self.maxRounds {
            let stored = round == 0 && basisIsForItem ? basis?.stored : try await store.state(of: storable.entrupyID)
            // An erased submitter's item is diffed, rendered and stored without the people fields.
            let erased = namesErasedKey || stored?.erased == true
            let item = erased ? storable.erasingPeople() : storable
            let transitions = Self.transitions(item, observedAt: observedAt, against: stored).map { $0 + Self.overdue(item, threshold: overdue) }
            let rules = rules(for: source, notify: notify)
            // Notifications carry the organisation's own ID for the submitter: looked up only
            // when a rule fires (from the SDK users mirror, or the store's memory of it), so they
            // render once; the commit is refused if the mirror changed meanwhile.
            var submitter: SubmitterLookup?
            if let username = item.username, let rules, let transitions,
               DeliveryPlanner.plansAny(rules: rules, item: item, transitions: transitions) {
                submitter = SubmitterLookup(username: username, uniqueUserID: try await store.uniqueUserID(username: username))
            }
            var change = withSpan("rules") { span in
                let change = Self.plan(item, observedAt: observedAt, source: source, against: stored, transitions: transitions,
                                       rules: rules, uniqueUserID: submitter?.uniqueUserID)
                span.attributes["relay.transitions"] = change.transitions.map(\.kind.rawValue)
                span.attributes["relay.deliveries"] = change.deliveries.count
                return change
            }
            change.item = erased ? fetched.erasingPeople() : fetched
            change.peopleErased = erased
            change.submitter = submitter
            do {
                if let result = try await store.commit(change, followUps: followUps, releasing: lease) {
                    report(result, item: item, source: source)
                    return result
                }
            } catch is ErasedSubjectFound where !erased {
                // First fetched (or first naming its submitter) after an erasure: again, without them.
                namesErasedKey = true
            }
        }
        throw ReconcileContention(entrupyID: storable.entrupyID, rounds: Self.maxRounds)
    }

    static let maxRounds = 8

    /// The database's clock, which orders answers.
    public func clock() async throws -> Date {
        try await store.clock()
    }

    /// What the store holds of these items, keyed by Entrupy ID as stored.
    public func storedStates(of entrupyIDs: [String]) async throws -> [String: StoredItemState] {
        try await store.states(of: entrupyIDs)
    }

    func fetch(_ target: Target, priority: APIPriority) async throws -> EntrupyItem {
        switch target {
        case .entrupyID(let id): try await api.item(entrupyID: id, priority: priority)
        case .customerItemID(let id): try await api.lookup(customerItemID: id, priority: priority)
        }
    }

    /// Step 3, pure: the change to store, with the deliveries `rules` plan for `transitions`
    /// (nil transitions: the answer is stale and changes nothing).
    static func plan(_ item: EntrupyItem, observedAt: Date, source: ReconcileSource, against stored: StoredItemState?,
                     transitions: [Transition]?, rules: RuleSet?, uniqueUserID: String?) -> ReconcileChange {
        guard let transitions else {
            return ReconcileChange(item: item, observedAt: observedAt, source: source, basedOn: stored, transitions: [],
                                   deliveries: [], stale: true)
        }
        let deliveries = rules.map { DeliveryPlanner.plan(rules: $0, item: item, transitions: transitions, occurredAt: observedAt,
                                                          uniqueUserID: uniqueUserID) } ?? []
        return ReconcileChange(item: item, observedAt: observedAt, source: source, basedOn: stored,
                               transitions: transitions, deliveries: deliveries)
    }

    /// Step 2: what changed since the stored state; nil when the answer is older than it (stale).
    static func transitions(_ item: EntrupyItem, observedAt: Date, against stored: StoredItemState?) -> [Transition]? {
        if let stored, stored.fetchedAt > observedAt { return nil }
        return TransitionDiffer.diff(from: stored?.snapshot, to: item.snapshot)
    }

    /// `result.overdue` at `threshold` when the item as fetched is still not final (none without a threshold).
    static func overdue(_ item: EntrupyItem, threshold: String?) -> [Transition] {
        guard let threshold, !item.resultFinal else { return [] }
        return [Transition(kind: .resultOverdue, from: item.result, to: threshold)]
    }

    /// The rules a reconcile plans by: none for a backfill, which reads history and records the
    /// timeline but notifies nobody, or when the caller asks for none.
    private func rules(for source: ReconcileSource, notify: Bool) -> RuleSet? {
        source == .backfill || !notify ? nil : rules?.current
    }

    private func report(_ result: ApplyResult, item: EntrupyItem, source: ReconcileSource) {
        MetricHandles.counter(.reconciles, [("source", source.label), ("changed", result.transitions.isEmpty ? "no" : "yes")]).increment()
        for transition in result.transitions {
            MetricHandles.counter(.transitions, [("kind", transition.kind.rawValue)]).increment()
        }
        if !result.transitions.isEmpty {
            logger.info("item reconciled", metadata: [
                "entrupy_id": "\(item.entrupyID)", "transitions": "\(result.transitions.map(\.kind.rawValue).joined(separator: ","))",
                "deliveries": "\(result.deliveries)", "source": "\(source.label)",
            ])
        }
    }
}

extension ReconcileSource {
    /// Whose turn it is when the shared API budget runs short: a webhook's change first, then
    /// support's re-fetch, then the background (sweep, sync, backfill).
    var apiPriority: APIPriority {
        switch self {
        case .webhook: .webhook
        case .manual: .interactive
        case .sweep, .sync, .backfill: .background
        }
    }
}

/// Other workers kept storing the same item while this one tried to.
public struct ReconcileContention: Error, CustomStringConvertible {
    public var entrupyID: String
    public var rounds: Int
    public var description: String { "item \(entrupyID) changed under this worker \(rounds) times in a row" }
}
