import Hummingbird

/// `/_sim/config` (the world's behaviour and faults, validated as a whole, echoed back) and
/// `/_sim/stats` (what the simulator has seen and done).
struct AdminConfigRoutes: Sendable {
    let store: SimulatorStore

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/_sim/config") { _, _ in
            SimResponse.json(store.configuration)
        }
        router.post("/_sim/config") { request, _ in
            let body = try await SimResponse.body(request)
            return SimResponse.json(try store.reconfigure { current throws(SimInputError) in
                try ConfigChange.parse(body, current: current)
            })
        }
        router.get("/_sim/stats") { _, _ in
            SimResponse.json(store.stats.json)
        }
        // Counting starts again (a benchmark that seeded at full speed measures the run after it).
        router.post("/_sim/stats/reset") { _, _ in
            store.resetStats()
            return SimResponse.json(store.stats.json)
        }
    }
}
