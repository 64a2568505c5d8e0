import Foundation
import RelayModel
import RelayStore
import Testing

/// The whole pipeline in each API version (`ENTRUPY_RELAY_ENTRUPY_API_VERSION`), against a
/// simulator that serves only that version: webhook → reconcile → rules → delivery, a lost
/// webhook found by the sync, and a flag v2 names; and, with the versions mismatched, the
/// relay says what differs instead of reading it as "not visible yet".
@Suite("Entrupy API versions", .timeLimit(.minutes(5)))
struct EntrupyVersionTests {
    static func env(_ version: String, callbacks: TestCallbackServer) throws -> [String: String] {
        try NotifyEnvironment.make(rules: """
            rules:
              - name: partner
                when: {transition: [result.final, flag.reviewed]}
                notify:
                  - webhook: {url: "\(callbacks.url("/ok"))", secret: "${CALLBACK_SECRET}"}
            """, extra: ["ENTRUPY_RELAY_ENTRUPY_API_VERSION": version])
    }

    @Test(arguments: ["2", "1.4"])
    func thePipelineRunsInEachVersion(version: String) async throws {
        try await TestCallbackServer.with { callbacks async throws in
            try await ReconcileStack.with(env: try Self.env(version, callbacks: callbacks)) { stack async throws in
                let sim = stack.simulator
                // The simulator serves only this version: v1 retired (410) in v2 mode, no v2 in 1.4 mode.
                try await sim.configure(["api_version": .string(version)])
                let id = try await sim.createItem("sku-\(version)", result: "authentic", final: true)
                #expect(try await stack.waitFor(id, result: "authentic"))
                #expect(try await stack.timeline(id) == ["item.created", "result.final"])
                let delivered = try await callbacks.waitForRequests(1, path: "/ok")
                #expect(delivered.count == 1 && delivered[0].verified && delivered[0].body[path: "data.entrupy_id"]?.stringValue == id
                        && delivered[0].body["type"]?.stringValue == "result.final")

                // v2's flag value: a transition rules can match, delivered.
                try await sim.setFlag(id, "reviewed_ok")
                #expect(try await stack.waitFor(id, flag: "reviewed_ok"))
                #expect(try await stack.timeline(id) == ["item.created", "result.final", "flag.reviewed"])
                #expect(try await callbacks.waitForRequests(2, path: "/ok").count == 2)

                // A lost webhook: the sync by search finds the item.
                let lost = try await sim.createItem("sku-lost-\(version)", result: "not_supported", final: true, webhook: false)
                let env = CommandLineTests.environment(stack.database, [
                    "ENTRUPY_RELAY_ENTRUPY_API_URL": sim.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                    "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_ENTRUPY_API_VERSION": version,
                ])
                let pass = try await CommandLineTests.run(["sync", "run"], env: env)
                #expect(pass.status == 0 && pass.stdout.contains("2 items checked"), "\(pass.stdout) \(pass.stderr)")
                #expect(try await stack.waitFor(lost, result: "not_supported", timeout: .seconds(1)))

                // What the item says in this version is shown: v2's first result and last update.
                let shown = try await CommandLineTests.run(["items", "show", id], env: env)
                #expect(shown.status == 0, "\(shown.stderr)")
                if version == "2" {
                    #expect(shown.stdout.contains("first result Authentic") && shown.stdout.contains("Last updated"), "\(shown.stdout)")
                }

                // Every call went to this version's routes.
                let routes = try #require(try await sim.stats()["api_requests_by_route"]?.objectValue)
                let other = version == "2" ? "/v1/" : "/v2/"
                #expect(routes.keys.filter { $0.contains(other) && !$0.contains("integrations") }.isEmpty, "\(routes.keys.sorted())")
                #expect(routes.keys.contains { $0.contains(version == "2" ? "/v2/lookup" : "/v1/lookup") || $0.contains(version == "2" ? "/v2/authentications" : "/v1/authentications") },
                        "\(routes.keys.sorted())")
            }
        }
    }

    /// The relay speaks one version and Entrupy serves the other: readiness, the webhook's event
    /// and the doctor say so, naming the setting, instead of 30 minutes of "not visible yet" and
    /// a dropped webhook.
    @Test(arguments: [("2", "1.4"), ("1.4", "2")])
    func aVersionEntrupyDoesNotServeIsNamed(relay: String, served: String) async throws {
        let operations = try await freePort()
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_ENTRUPY_API_VERSION": relay, "ENTRUPY_RELAY_METRICS_PORT": String(operations),
                                            "ENTRUPY_RELAY_ENTRUPY_HEALTH_INTERVAL_SECONDS": "1"]) { stack async throws in
            try await stack.simulator.configure(["api_version": .string(served)])
            #expect(try await eventually {
                try await EntrupyHealthTests.readiness(operations).1[path: "checks.entrupy"]?.stringValue?.hasPrefix("route gone") == true
            })
            let check = try await EntrupyHealthTests.readiness(operations).1[path: "checks.entrupy"]?.stringValue ?? ""
            #expect(check.contains("ENTRUPY_RELAY_ENTRUPY_API_VERSION"), "\(check)")

            let env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": stack.simulator.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                "ENTRUPY_RELAY_ENTRUPY_API_VERSION": relay,
            ])
            let doctor = try await CommandLineTests.run(["entrupy", "check"], env: env)
            #expect(doctor.status == 1)
            #expect(doctor.stdout.contains("differs  api version") && doctor.stdout.contains("set ENTRUPY_RELAY_ENTRUPY_API_VERSION=\(served)"),
                    "\(doctor.stdout)\(doctor.stderr)")

            // A webhook meanwhile waits, its event saying why, neither failed nor counted down as
            // an item not visible yet; once the version answers, its item arrives: nothing is lost.
            let id = try await stack.simulator.createItem("sku-mismatch", result: "authentic", final: true)
            #expect(try await eventually(timeout: .seconds(30)) {
                try await stack.count("SELECT count(*) FROM webhook_events WHERE last_error LIKE '%ENTRUPY_RELAY_ENTRUPY_API_VERSION%' AND state <> 'failed'") == 1
            })
            try await stack.simulator.configure(["api_version": .string("both")])
            #expect(try await stack.waitFor(id, result: "authentic", timeout: .seconds(60)))
        }
    }

    /// The first-hour doctor against an Entrupy that bears every assumption out, then one that
    /// breaks one (a search that needs another category).
    @Test func theDoctorSaysOkOrWhatDiffers() async throws {
        try await ReconcileStack.with { stack async throws in
            let sim = stack.simulator
            try await sim.configure(["api_version": .string("2")])
            _ = try await sim.createItem("sku-doctor", result: "authentic", final: true, webhook: false)
            let env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": sim.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                "ENTRUPY_RELAY_ENTRUPY_API_VERSION": "2", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
            ])
            let good = try await CommandLineTests.run(["entrupy", "check", "--customer-item-id", "sku-doctor"], env: env)
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            for line in ["ok       token", "ok       api version     v2 routes answer", "ok       lookup          answered one item",
                         "ok       search          1 items on the first page", "next_cursor none", "ok       item shape      v2 shape",
                         "ok       webhook secrets 1 Entrupy secret(s): key_"] {
                #expect(good.stdout.contains(line), "\(line) in \(good.stdout)")
            }
            #expect(!good.stdout.contains(WebhookFixture.secret) && !good.stdout.contains(TestSimulator.token))

            try await sim.configure(["lookup_answers_list": .bool(true)])
            let unknown = try await CommandLineTests.run(["entrupy", "check", "--customer-item-id", "sku-nobody"], env: env)
            #expect(unknown.status == 1 && unknown.stdout.contains("differs  lookup          GET /v2/lookup/authentications/{customer_item_id} knows no authentication"),
                    "\(unknown.stdout)")

            let listed = try await CommandLineTests.run(["entrupy", "check", "--customer-item-id", "sku-doctor"], env: env)
            #expect(listed.status == 0 && listed.stdout.contains("ok       lookup          answered a list of 1; the relay takes the latest"), "\(listed.stdout)")

            try await sim.configure(["search_answers_nothing": .bool(true)])
            let nothing = try await CommandLineTests.run(["entrupy", "check"], env: env)
            #expect(nothing.status == 1 && nothing.stdout.contains("differs  search          no items in the last 90 days"), "\(nothing.stdout)")
            #expect(nothing.stdout.contains("skipped  lookup"))
        }
    }

    /// The organisation's items are all of a category the relay does not search: the doctor
    /// names it and the setting that adds it.
    @Test func theDoctorNamesACategoryTheSyncWouldMiss() async throws {
        try await ReconcileStack.with { stack async throws in
            let sim = stack.simulator
            let (status, _) = try await sim.call(.POST, "/_sim/items", .object([
                "customer_item_id": .string("sku-watch"), "category": .string("watches"), "result": .string("authentic"),
                "final": .bool(true), "webhook": .bool(false),
            ]))
            #expect(status == 201)
            var env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": sim.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
            ])
            let blind = try await CommandLineTests.run(["entrupy", "check"], env: env)
            #expect(blind.status == 1, "\(blind.stdout)")
            #expect(blind.stdout.contains("differs  search          answers nothing with the category filter") && blind.stdout.contains("(categories watches)")
                    && blind.stdout.contains("ENTRUPY_RELAY_SYNC_CATEGORIES"), "\(blind.stdout)")
            env["ENTRUPY_RELAY_SYNC_CATEGORIES"] = "watches"
            let widened = try await CommandLineTests.run(["entrupy", "check"], env: env)
            #expect(widened.status == 0 && widened.stdout.contains("ok       search          1 items on the first page"), "\(widened.stdout)")
        }
    }
}
