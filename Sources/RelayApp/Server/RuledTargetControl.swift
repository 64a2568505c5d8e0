import RelayModel
import RelayHTTP
import RelayRules
import RelayStore
import RelayWorker

/// The query API's and the console's targets: the store's, with an operator's enable or disable
/// planned through the rules in force (`rules.current`, so a SIGHUP reload applies), so it is a
/// transition that alerts like the breaker's own.
struct RuledTargetControl: TargetQueries {
    let store: PostgresTargetHealthStore
    let rules: RulesStore

    init(store: PostgresTargetHealthStore, rules: RulesStore) {
        self.store = store
        self.rules = rules
    }

    /// The store's targets with the rate limits of the rules in force.
    func list() async throws -> [TargetSummary] {
        rules.current.withRateLimits(try await store.list())
    }

    func set(_ target: String, enabled: Bool, by operatorName: String) async throws -> TargetHealth? {
        try await store.set(target, enabled: enabled, by: operatorName) { [rules] event in
            DeliveryPlanner.plan(rules: rules.current, event: event)
        }
    }
}
