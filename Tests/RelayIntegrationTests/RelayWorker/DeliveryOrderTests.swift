import Foundation
import RelayModel
import RelayStore
import Synchronization
import Testing

/// Order per item and target (issue 46), end to end: a new item with a final result makes two
/// transitions (item.created, then result.final), and a rule without `when` sends both to one
/// endpoint of a real callback sink, whose `/match/...` paths fail only the item.created message
/// of a chosen item. The later delivery waits behind the earlier one while it is pending or
/// failed, shown so in the API, the CLI and the console; it goes once the earlier one is
/// delivered or dead. Another item, or another endpoint on the same host, does not wait.
@Suite("Order per item and target", .timeLimit(.minutes(3)))
struct DeliveryOrderTests {
    static func rules(_ ordered: String, elsewhere: String? = nil) -> String {
        var text = """
            rules:
              - name: ordered
                continue: true
                notify:
                  - webhook: {url: "\(ordered)", secret: "${CALLBACK_SECRET}"}
            """
        if let elsewhere {
            text += """

                  - name: elsewhere
                    notify:
                      - webhook: {url: "\(elsewhere)", secret: "${CALLBACK_SECRET}"}
                """
        }
        return text
    }

    /// The item's deliveries of `rule`, oldest first: item.created's, then result.final's.
    static func pair(_ stack: ReconcileStack, item: String, rule: String = "ordered") async throws -> [DeliveryRecord] {
        try await NotifyEnvironment.deliveries(stack.database, item: item).filter { $0.rule == rule }.sorted { $0.id < $1.id }
    }

    /// Waits (up to 20 s) until the first of the item's pair is failed and the later one is
    /// shown held behind it, its recheck more than `recheckBeyond` seconds away when given;
    /// answers whether it came to that, and the pair as last read.
    static func heldBehindFailing(_ stack: ReconcileStack, item: String,
                                  recheckBeyond: TimeInterval? = nil) async throws -> (held: Bool, pair: [DeliveryRecord]) {
        let last = Mutex<[DeliveryRecord]>([])
        let held = try await eventually(timeout: .seconds(20)) {
            let pair = try await Self.pair(stack, item: item)
            last.withLock { $0 = pair }
            return pair.count == 2 && pair[0].state == .failed && pair[1].shownHeldBehind == pair[0].id
                && recheckBeyond.map { (pair[1].nextAttemptAt ?? .distantPast) > Date().addingTimeInterval($0) } ?? true
        }
        return (held, last.withLock { $0 })
    }

    /// What the sink received for `item` at `path`, in arrival order: each message's type and the answer.
    static func received(_ callbacks: TestCallbackServer, path: String, item: String) throws -> [(type: String, status: Int, at: Double)] {
        try callbacks.requests().filter { $0.path == path && $0.body.jsonText.contains(item) }.sorted { $0.receivedAt < $1.receivedAt }
            .map { ($0.body["type"]?.stringValue ?? "?", $0.status, $0.receivedAt) }
    }

    @Test func deliveriesForOneItemToOneTargetArriveInTransitionOrderWhileTheFirstFailsTwice() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let path = "/match/2/500/item.created/ord-a"
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url(path), elsewhere: callbacks.url("/ok")),
                                                 schedule: "2s,2s,2s", extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("ord-a", result: "authentic", final: true)
                let other = try await stack.simulator.createItem("ord-b", result: "authentic", final: true)
                // The later one is shown held behind the first while the first is failing.
                let (held, pair) = try await Self.heldBehindFailing(stack, item: id)
                #expect(held, "\(pair.map { "\($0.id) \($0.transition) \($0.state) behind \($0.heldBehind.map(String.init) ?? "-")" })")
                let (first, later) = (try #require(pair.first), try #require(pair.last))
                #expect(first.transition == "item.created" && later.transition == "result.final")
                #expect(later.attempts == 0, "held: not attempted")
                try await Self.expectShownHeld(stack, item: id, first: first.id, later: later.id)

                let delivered = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 4, state: .delivered)
                #expect(delivered.count == 4)
                let arrived = try Self.received(callbacks, path: path, item: "ord-a")
                #expect(arrived.map(\.type) == ["item.created", "item.created", "item.created", "result.final"], "\(arrived)")
                #expect(arrived.map(\.status) == [500, 500, 200, 200])
                let final = try await Self.pair(stack, item: id)
                #expect(final.map(\.attempts) == [3, 1])
                #expect(try await stack.count("SELECT count(*) FROM deliveries WHERE held_behind IS NOT NULL") == 0, "released")

                // Another item to the same endpoint, and this item to another endpoint on the same host, did not wait.
                let firstDelivered = try #require(arrived.first { $0.status == 200 }?.at)
                let otherItem = try Self.received(callbacks, path: path, item: "ord-b")
                #expect(otherItem.map(\.status) == [200, 200] && otherItem.allSatisfy { $0.at < firstDelivered }, "\(otherItem)")
                #expect(try await Self.pair(stack, item: other).map(\.attempts) == [1, 1])
                let elsewhere = try Self.received(callbacks, path: "/ok", item: "ord-a")
                #expect(elsewhere.count == 2 && elsewhere.allSatisfy { $0.status == 200 && $0.at < firstDelivered }, "\(elsewhere)")
            }
        }
    }

    /// The API, `deliveries show` and `list`, and the console's deliveries and item pages say
    /// which delivery `later` waits for.
    static func expectShownHeld(_ stack: ReconcileStack, item: String, first: Int64, later: Int64) async throws {
        let support = try await APIAccess.token(stack.database, role: .support)
        let listed = try await stack.relay.get("/v1/deliveries?item=\(item)", token: support)
        let rows = try #require(listed.json?["deliveries"] as? [[String: Any]], "\(listed.body)")
        #expect(rows.first { $0["id"] as? Int == Int(later) }?["held_behind"] as? Int == Int(first), "\(listed.body)")
        #expect(rows.first { $0["id"] as? Int == Int(first) }?["held_behind"] is NSNull, "\(listed.body)")
        let show = try await CommandLineTests.run(["deliveries", "show", String(later)], env: CommandLineTests.environment(stack.database))
        #expect(show.status == 0 && show.stdout.contains("held behind delivery \(first)"), "\(show.stdout) \(show.stderr)")
        let list = try await CommandLineTests.run(["deliveries", "list", "--item", item], env: CommandLineTests.environment(stack.database))
        #expect(list.stdout.contains("pending, held behind delivery \(first)"), "\(list.stdout) \(list.stderr)")
        let cookie = try await ConsoleSignIn.session(stack.relay, token: support)
        let page = try await stack.relay.request("/console/deliveries?item=\(item)", headers: [("Cookie", cookie)])
        #expect(page.body.contains("held behind delivery \(first)"), "\(page.status)")
        let itemPage = try await stack.relay.request("/console/items/\(item)", headers: [("Cookie", cookie)])
        #expect(itemPage.body.contains(##"(held behind <a href="#delivery-\##(first)">delivery \##(first)</a>)"##), "\(itemPage.status)")
    }

    /// A dead first delivery releases the next at once; redriving the dead one later does not
    /// hold back (or resend) the one already delivered.
    @Test func aDeadFirstDeliveryReleasesTheNext() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let path = "/match/99/500/item.created"
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url(path)), schedule: "300ms,300ms",
                                                 extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("ord-dead", result: "authentic", final: true)
                var pair: [DeliveryRecord] = []
                let settled = try await eventually(timeout: .seconds(20)) {
                    pair = try await Self.pair(stack, item: id)
                    return pair.map(\.state) == [.dead, .delivered]
                }
                let seen = pair
                #expect(settled, "\(seen.map { "\($0.transition) \($0.state) \($0.attempts)" })")
                #expect(seen.map(\.attempts) == [3, 1])
                let first = try #require(seen.first?.id)
                let arrived = try Self.received(callbacks, path: path, item: id)
                #expect(arrived.map(\.status) == [500, 500, 500, 200] && arrived.last?.type == "result.final", "\(arrived)")

                let redriven = try await TestDatabase.withClient(stack.database) { client in
                    try await PostgresDeliveryStore(client: client, logger: TestDatabase.logger).retry(id: first)
                }
                #expect(redriven == .queued)
                #expect(try await eventually(timeout: .seconds(20)) {
                    try await Self.pair(stack, item: id).map(\.attempts) == [6, 1]
                })
                let after = try await Self.pair(stack, item: id)
                #expect(after.map(\.state) == [.dead, .delivered])
                #expect(try Self.received(callbacks, path: path, item: id).filter { $0.type == "result.final" }.count == 1)
            }
        }
    }

    /// The first answers 429 with Retry-After: 30, so the next waits with a recheck over 30 s
    /// away; an operator's redrive delivers the first, and the statement that records it wakes
    /// the next, which goes within seconds, not at its recheck.
    @Test func settlingTheFirstWakesTheNextAtOnce() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let path = "/match/1/429/item.created"
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url(path)), schedule: "1s,1s",
                                                 extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("ord-wake", result: "authentic", final: true)
                let (held, pair) = try await Self.heldBehindFailing(stack, item: id, recheckBeyond: 15)
                #expect(held, "\(pair.map { "\($0.transition) \($0.state) \($0.heldBehind.map(String.init) ?? "-") \($0.nextAttemptAt ?? .distantPast)" })")
                let support = try await APIAccess.token(stack.database, role: .support)
                let retried = try await stack.relay.post("/v1/deliveries/\(try #require(pair.first).id)/retry", token: support, json: "{}")
                #expect(retried.status < 300, "\(retried.body)")
                let started = ContinuousClock.now
                let delivered = try await eventually(timeout: .seconds(12)) {
                    try await Self.pair(stack, item: id).map(\.state) == [.delivered, .delivered]
                }
                #expect(delivered, "released by the wake-up, long before the recheck")
                #expect(ContinuousClock.now - started < .seconds(12))
                let arrived = try Self.received(callbacks, path: path, item: id)
                #expect(arrived.map(\.type) == ["item.created", "item.created", "result.final"] && arrived.map(\.status) == [429, 200, 200],
                        "\(arrived)")
            }
        }
    }

    /// A silence settles the first as surely as a delivery does: the first answers 429 with
    /// Retry-After: 30 (the next's recheck over 15 s away), a silence on its transition is made
    /// and the first redriven, so its run records it silenced; that statement wakes the next,
    /// which goes within seconds, not at its recheck.
    @Test func silencingTheFirstWakesTheNextAtOnce() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let path = "/match/1/429/item.created"
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url(path)), schedule: "1s,1s",
                                                 extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("ord-silence", result: "authentic", final: true)
                #expect(try await Self.heldBehindFailing(stack, item: id, recheckBeyond: 15).held)
                let first = try #require(try await Self.pair(stack, item: id).first?.id)
                let support = try await APIAccess.token(stack.database, role: .support)
                let silence = try await stack.relay.post("/v1/silences", token: support, json: """
                    {"rule": "ordered", "matchers": {"transition": ["item.created"]}, "reason": "test", "duration": "10m"}
                    """)
                #expect(silence.status == 201, "\(silence.body)")
                // The worker's list of silences is at most 2 s old.
                try await Task.sleep(for: .seconds(3))
                let retried = try await stack.relay.post("/v1/deliveries/\(first)/retry", token: support, json: "{}")
                #expect(retried.status < 300, "\(retried.body)")
                let started = ContinuousClock.now
                let settled = try await eventually(timeout: .seconds(12)) {
                    try await Self.pair(stack, item: id).map(\.state) == [.silenced, .delivered]
                }
                #expect(settled, "released by the silence's write, long before the recheck")
                #expect(ContinuousClock.now - started < .seconds(12))
                let arrived = try Self.received(callbacks, path: path, item: id)
                #expect(arrived.map(\.type) == ["item.created", "result.final"] && arrived.map(\.status) == [429, 200], "\(arrived)")
            }
        }
    }

    /// Email rules to the same recipients: `later` (item.created and result.final, each waiting for
    /// a time of its own, a digest due in an hour or quiet hours for the next hour) and `urgent`
    /// (result.final, at once). The urgent email is not held behind the other rule's earlier
    /// delivery; the digest's later member is not held behind its earlier one either, as one
    /// email will list both in order.
    @Test(arguments: ["digest", "quiet"])
    func anUrgentEmailIsNotHeldBehindAnotherRulesDigestOrQuietHours(_ waiting: String) async throws {
        let now = Date()
        func clock(_ date: Date) -> String {
            let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 86_400
            return String(format: "%02d:%02d:%02d", seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
        }
        // YAML lines for the waiting rule: its email action's grouping, or the rule's quiet hours.
        let (group, quiet) = waiting == "digest" ? ("\n          group_by: [rule]\n          group_wait: 1h", "")
            : ("", "\n    quiet_hours: {from: \"\(clock(now.addingTimeInterval(-60)))\", to: \"\(clock(now.addingTimeInterval(3_600)))\", time_zone: UTC}")
        let rules = """
            rules:
              - name: later
                continue: true
                notify:
                  - email:
                      to: [support@example.com]
                      subject: "later {{transition}}"
                      text: "{{entrupy_id}}"\(group)\(quiet)
              - name: urgent
                when: {transition: [result.final]}
                notify:
                  - email: {to: [support@example.com], subject: "urgent {{customer_item_id}}", text: "{{entrupy_id}}"}
            """
        try await TestSMTPServer.with { smtp async throws in
            let env = try NotifyEnvironment.make(rules: rules, smtpPort: smtp.port)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("ord-urgent-\(waiting)", result: "authentic", final: true)
                var urgent: [DeliveryRecord] = []
                let sent = try await eventually(timeout: .seconds(30)) {
                    urgent = try await Self.pair(stack, item: id, rule: "urgent")
                    return urgent.map(\.state) == [.delivered]
                }
                let seen = try await NotifyEnvironment.deliveries(stack.database, item: id)
                #expect(sent, "\(seen.map { "\($0.id) \($0.rule) \($0.state) behind \($0.heldBehind.map(String.init) ?? "-")" })")
                #expect(urgent.first?.attempts == 1 && urgent.first?.heldBehind == nil)
                let later = try await Self.pair(stack, item: id, rule: "later")
                #expect(later.map(\.state) == [.pending, .pending] && later.map(\.attempts) == [0, 0], "the other rule still waits")
                #expect(later.first.map { $0.id < (urgent.first?.id ?? 0) } == true, "the waiting rule's delivery was the earlier one")
                #expect(later.allSatisfy { $0.heldBehind == nil }, "one rule's quiet hours, or one group's email, keep the order")
                let subjects = try smtp.messages().map { $0.header("Subject") ?? "" }
                #expect(subjects.count == 1 && subjects.first?.hasPrefix("urgent ") == true, "\(subjects)")
            }
        }
    }

    /// The first is held by its target's breaker (the target disabled), the next waits behind it
    /// (its recheck ten minutes away, as the first has no attempt scheduled); enabling the target
    /// drains the first, whose delivery wakes the next at once.
    @Test func aDeliveryHeldByItsTargetsBreakerHoldsTheNextUntilTheDrainSendsIt() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let url = callbacks.url("/switch/ordered")
                let env = try NotifyEnvironment.make(rules: Self.rules(url),
                                                     extra: WorkerProcessTests.workerEnv(stack.simulator, HeldTargetsTests.breakerEnv))
                let cli = CommandLineTests.environment(stack.database, env)
                let disabled = try await CommandLineTests.run(["targets", "disable", url], env: cli)
                #expect(disabled.status == 0, "\(disabled.stderr)")
                let worker = try RelayProcess(["worker"], database: stack.database, env: env)
                let id = try await stack.simulator.createItem("ord-breaker", result: "authentic", final: true)
                let held = try await eventually(timeout: .seconds(20)) {
                    let pair = try await Self.pair(stack, item: id)
                    return pair.count == 2 && pair[0].heldBy != nil && pair[1].shownHeldBehind == pair[0].id && pair[1].heldBy == nil
                        && (pair[1].nextAttemptAt ?? .distantPast) > Date().addingTimeInterval(300)
                }
                let seen = try await Self.pair(stack, item: id)
                #expect(held, "\(seen.map { "\($0.transition) \($0.heldBy ?? "-") \($0.heldBehind.map(String.init) ?? "-") \($0.nextAttemptAt ?? .distantPast)" })")
                #expect(try callbacks.requests().isEmpty)

                let enabled = try await CommandLineTests.run(["targets", "enable", url], env: cli)
                #expect(enabled.status == 0, "\(enabled.stderr)")
                #expect(try await eventually(timeout: .seconds(20)) {
                    try await Self.pair(stack, item: id).map(\.state) == [.delivered, .delivered]
                }, "the drain sent the first; its delivery woke the next")
                let arrived = try Self.received(callbacks, path: "/switch/ordered", item: id)
                #expect(arrived.map(\.type) == ["item.created", "result.final"] && arrived.allSatisfy { $0.status == 200 }, "\(arrived)")
                #expect(await worker.stop() == 0)
            }
        }
    }
}
