import Hummingbird

/// `POST /_sim/drive`: Entrupy's users finish `rate` items a second for `seconds` seconds, each
/// sending its webhook, paced by the simulator's own clock, as `POST /_sim/items` would one
/// at a time. Answers once the last is made: how many, and how far behind its time the
/// latest one came (the simulator itself falling behind shows there, not as a slower relay).
/// For load: a driver process making each item by its own request cost the two cores the
/// relay is measured on about 1 ms of CPU per webhook, its own and the simulator's.
struct AdminDriveRoutes: Sendable {
    let store: SimulatorStore
    let sender: WebhookSender

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("/_sim/drive") { request, _ in
            let plan = try DrivePlan.parse(try await SimResponse.body(request), organisation: store.organisation)
            let (created, behind) = try await drive(plan)
            let behindMilliseconds = behind.components.seconds * 1000 + behind.components.attoseconds / 1_000_000_000_000_000
            return SimResponse.json(.object([
                "created": .number(created), "behind_ms_max": .int(behindMilliseconds),
            ]), status: .created)
        }
    }

    /// Makes the plan's items on schedule; throws `CancellationError` when the simulator stops.
    private func drive(_ plan: DrivePlan) async throws -> (created: Int, behind: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let interval = Duration.seconds(1) / plan.rate
        var behind = Duration.zero
        for n in 0..<plan.total {
            let due = start + interval * n
            try await clock.sleep(until: due)
            behind = max(behind, clock.now - due)
            let draft = plan.draft(n)
            let item = store.create(draft)
            if draft.sendWebhook { sender.send(WebhookEvent.sessionCompleted, item: item) }
        }
        return (plan.total, behind)
    }
}
