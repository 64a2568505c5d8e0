import Foundation
import Testing
import RelayModel

/// Support flags an item at Entrupy from the relay (API, command line, console), against the
/// simulator: each flag recorded with who raised it and shown on the timeline, a repeat not sent
/// again, an item that may not be flagged refused, Entrupy's failures answered in our words, and
/// a burst held to people's share of the API budget.
@Suite("Flag from the relay", .timeLimit(.minutes(4)))
struct ItemFlagTests {
    /// v2, so the items carry Entrupy's `is_flaggable` and `supported_flag_reasons`.
    static let env = ["ENTRUPY_RELAY_ENTRUPY_API_VERSION": "2"]

    @Test func aFlagFromTheAPIIsRecordedShownRepeatedOnceAndResolved() async throws {
        try await ReconcileStack.with(env: Self.env) { stack async throws in
            let support = try await APIAccess.token(stack.database, role: .support, name: "sam")
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            let id = try await stack.simulator.createItem("sku-flag-api", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            let relay = stack.relay
            let body = #"{"reason": "result_disputed", "comment": "the stitching looks off"}"#

            #expect(try await relay.post("/v1/items/\(id)/flag", token: consumer, json: body).status == 403)
            let flagged = try await relay.post("/v1/items/\(id)/flag", token: support, json: body)
            #expect(flagged.status == 201, "\(flagged.body)")
            let flag = try #require(flagged.json)
            #expect(flag["state"] as? String == "succeeded" && flag["requested_by"] as? String == "token sam")
            #expect(flag["reason"] as? String == "result_disputed" && flag["comment"] as? String == "the stitching looks off")
            #expect(flag["entrupy_status"] as? Int == 200 && flag["repeated"] as? Bool == false)

            // The same request again: the recorded flag, and Entrupy is not asked twice.
            let repeated = try await relay.post("/v1/items/\(id)/flag", token: support, json: body)
            #expect(repeated.status == 200 && repeated.json?["repeated"] as? Bool == true)
            #expect(repeated.json?["id"] as? Int == flag["id"] as? Int)
            #expect(try await stack.simulator.call(.GET, "/_sim/flags").1["requests"]?.doubleValue == 1)

            // On the timeline, for support and not for a consumer; Entrupy's support resolves it later.
            let timeline = try await relay.get("/v1/items/\(id)", token: support).json?["timeline"] as? [[String: Any]] ?? []
            let line = try #require(timeline.first { $0["kind"] as? String == "flag.requested" })
            #expect((line["summary"] as? String ?? "").contains("token sam: result_disputed"), "\(line)")
            let hidden = try await relay.get("/v1/items/\(id)", token: consumer).json?["timeline"] as? [[String: Any]] ?? []
            #expect(!hidden.contains { $0["kind"] as? String == "flag.requested" })
            #expect(try await stack.waitFor(id, flag: "resolved"))
            #expect(try await stack.timeline(id).contains("flag.raised"))

            // Long after, with the flag resolved, the same request is a new flag: Entrupy is asked again.
            try await TestDatabase.execute(stack.database, "UPDATE flag_requests SET answered_at = now() - interval '10 minutes' WHERE entrupy_id = '\(id)'")
            let again = try await relay.post("/v1/items/\(id)/flag", token: support, json: body)
            #expect(again.status == 201 && again.json?["repeated"] as? Bool == false, "\(again.body)")
            #expect(again.json?["id"] as? Int != flag["id"] as? Int)
            #expect(try await stack.simulator.call(.GET, "/_sim/flags").1["requests"]?.doubleValue == 2)
            #expect(try await stack.count("SELECT count(*) FROM flag_requests WHERE entrupy_id = '\(id)' AND superseded_at IS NOT NULL") == 1)
        }
    }

    @Test func refusalsAndEntrupyFailuresAreAnsweredInOurWords() async throws {
        try await ReconcileStack.with(env: Self.env) { stack async throws in
            let support = try await APIAccess.token(stack.database, role: .support)
            let relay = stack.relay
            let pending = try await stack.simulator.createItem("sku-flag-pending", result: "needs_review", final: false)
            let final = try await stack.simulator.createItem("sku-flag-final", result: "unknown", final: true)
            #expect(try await stack.waitFor(pending, result: "needs_review"))
            #expect(try await stack.waitFor(final, result: "unknown"))
            func flag(_ id: String, _ body: String) async throws -> TestRelay.Response {
                try await relay.post("/v1/items/\(id)/flag", token: support, json: body)
            }
            // Not flaggable as the relay knows it: refused without asking Entrupy, and recorded.
            let refused = try await flag(pending, #"{"reason": "other"}"#)
            #expect(refused.status == 409 && (refused.message ?? "").contains("cannot be flagged"), "\(refused.body)")
            #expect(try await stack.count("SELECT count(*) FROM flag_requests WHERE entrupy_id = '\(pending)' AND state = 'refused'") == 1)
            // A reason the item does not offer, a bad body, an unknown item.
            let unknownReason = try await flag(final, #"{"reason": "because"}"#)
            #expect(unknownReason.status == 422 && (unknownReason.message ?? "").contains("result_disputed"), "\(unknownReason.body)")
            #expect(try await flag(final, #"{"comment": "no reason"}"#).status == 400)
            #expect(try await flag(final, #"{"reason": "other", "extra": 1}"#).status == 400)
            #expect(try await flag("nope", #"{"reason": "other"}"#).status == 404)
            // A customer item ID two authentications share names neither for sure: refused.
            let first = try await stack.simulator.createItem("sku-flag-twice", result: "authentic", final: true)
            let second = try await stack.simulator.createItem("sku-flag-twice", result: "authentic", final: true)
            #expect(try await stack.waitFor(first, result: "authentic"))
            #expect(try await stack.waitFor(second, result: "authentic"))
            let ambiguous = try await flag("sku-flag-twice", #"{"reason": "other"}"#)
            #expect(ambiguous.status == 409 && (ambiguous.message ?? "").contains("names 2 authentications"), "\(ambiguous.body)")
            #expect(try await stack.simulator.call(.GET, "/_sim/flags").1["requests"]?.doubleValue == 0)

            // Entrupy failing: a 502 in our words, recorded failed; a retry then goes through.
            try await stack.simulator.configure(["api_error_rate": .number(1)])
            let failed = try await flag(final, #"{"reason": "other", "comment": "try 1"}"#)
            #expect(failed.status == 502 && (failed.message ?? "").hasPrefix("Entrupy failed (503)"), "\(failed.body)")
            try await stack.simulator.configure(["api_error_rate": .number(0)])
            #expect(try await flag(final, #"{"reason": "other", "comment": "try 1"}"#).status == 201)
            // Entrupy refusing an item the relay still thinks flaggable (Entrupy changed its mind, no webhook yet).
            let other = try await stack.simulator.createItem("sku-flag-late", result: "authentic", final: true)
            #expect(try await stack.waitFor(other, result: "authentic"))
            try await stack.simulator.call(.POST, "/_sim/items/\(other)/flag", .object(["flag": .string("none"), "is_flaggable": .bool(false),
                                                                                       "webhook": .bool(false)]))
            let late = try await flag(other, #"{"reason": "other"}"#)
            #expect(late.status == 409 && (late.message ?? "").hasPrefix("Entrupy refused the flag"), "\(late.body)")
            #expect(try await stack.count("""
                SELECT count(*) FROM flag_requests WHERE entrupy_id = '\(other)' AND state = 'refused' AND entrupy_status = 409
                """) == 1)
        }
    }

    @Test func aFlagFromTheCommandLineNamesItsOperator() async throws {
        try await ReconcileStack.with(env: Self.env) { stack async throws in
            let id = try await stack.simulator.createItem("sku-flag-cli", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            let env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_VERSION": "2", "ENTRUPY_RELAY_ENTRUPY_API_URL": stack.simulator.baseURL,
                "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token, "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
                "USER": "ops-anna",
            ])
            // A flag route that is not where the setting says: Entrupy's 404 in our words, naming the setting.
            var moved = env
            moved["ENTRUPY_RELAY_ENTRUPY_API_FLAG_PATH"] = "/v2/nowhere/{id}/flag"
            let lost = try await CommandLineTests.run(["items", "flag", id, "--reason", "other"], env: moved)
            #expect(lost.status == 1 && lost.stderr.contains("404: Entrupy answered 404") && lost.stderr.contains("ENTRUPY_RELAY_ENTRUPY_API_FLAG_PATH"),
                    "\(lost.stderr)")
            let run = try await CommandLineTests.run(["items", "flag", "sku-flag-cli", "--reason", "wrong_item_details", "--comment", "size"],
                                                     env: env)
            #expect(run.status == 0 && run.stdout.contains("succeeded"), "\(run.stdout) \(run.stderr)")
            let again = try await CommandLineTests.run(["items", "flag", id, "--reason", "wrong_item_details", "--comment", "size", "--json"],
                                                       env: env)
            let repeated = try JSONValue.parse(Array(again.stdout.utf8))
            #expect(again.status == 0 && repeated["repeated"]?.boolValue == true && repeated["requested_by"]?.stringValue == "cli (ops-anna)",
                    "\(again.stdout) \(again.stderr)")
            let bad = try await CommandLineTests.run(["items", "flag", id, "--reason", "because"], env: env)
            #expect(bad.status == 1 && bad.stderr.contains("422: reason \"because\""), "\(bad.stderr)")
            #expect(try await stack.count("""
                SELECT count(*) FROM flag_requests WHERE entrupy_id = '\(id)' AND requested_by = 'cli (ops-anna)' AND state = 'succeeded'
                """) == 1)
            let shown = try await CommandLineTests.run(["items", "show", id], env: env)
            #expect(shown.stdout.contains("flag.requested") && shown.stdout.contains("cli (ops-anna)"), "\(shown.stdout)")
        }
    }

    @Test func aFlagFromTheConsoleFormNamesItsUser() async throws {
        try await ReconcileStack.with(env: Self.env) { stack async throws in
            let token = try await APIAccess.token(stack.database, role: .support, name: "casey")
            let id = try await stack.simulator.createItem("sku-flag-console", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            let cookie = try await ConsoleSignIn.session(stack.relay, token: token)
            let page = try await stack.relay.request("/console/items/\(id)", headers: [("Cookie", cookie)])
            #expect(page.body.contains(#"id="flag-form""#) && page.body.contains(#"<option value="result_disputed">"#), "\(page.body)")
            let csrf = try #require(page.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.prefix { $0 != "\"" })
            func post(_ form: String) async throws -> TestRelay.Response {
                try await stack.relay.request("/console/items/\(id)/flag", method: .POST, headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)], body: Array(form.utf8))
            }
            #expect(try await post("reason=other&csrf=wrong").status == 403)
            let done = try await post("reason=result_disputed&comment=logo+is+blurred&csrf=\(csrf)")
            #expect(done.status == 303 && (done.header("Location") ?? "").hasSuffix("?done=flagged"), "\(done.status) \(done.body)")
            let after = try await stack.relay.request("/console/items/\(id)?done=flagged", headers: [("Cookie", cookie)])
            #expect(after.body.contains("Entrupy accepted the flag") && after.body.contains("flag requested by console casey"), "\(after.body)")
            let refused = try await post("reason=because&csrf=\(csrf)")
            #expect(refused.status == 422 && refused.body.contains("The flag was not raised"), "\(refused.status)")
            // Its "Refresh now" button: the item's fetch queued first, said on the page.
            let refresh = try await stack.relay.request("/console/items/\(id)/refresh", method: .POST, headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)], body: Array("csrf=\(csrf)".utf8))
            let location = refresh.header("Location") ?? ""
            #expect(refresh.status == 303 && location.contains("?done=refresh-"), "\(refresh.status) \(location)")
            let refreshed = try await stack.relay.request(location, headers: [("Cookie", cookie)])
            #expect(refreshed.body.contains(#"id="notice""#) && refreshed.body.contains("Entrupy"), "\(refreshed.body.prefix(2000))")
        }
    }

    /// 50 flags at once with a budget of 20 requests a second: people may use 30 % of it, so no
    /// second at Entrupy sees more than 6 of them, and a webhook's reconcile meanwhile is not held up.
    @Test func aBurstOfFiftyFlagsTakesNoMoreThanPeoplesShare() async throws {
        let env = Self.env.merging(["ENTRUPY_RELAY_ENTRUPY_API_RATE": "20", "ENTRUPY_RELAY_API_TOKEN_CONCURRENCY": "64"]) { _, new in new }
        try await ReconcileStack.with(env: env) { stack async throws in
            let support = try await APIAccess.token(stack.database, role: .support)
            let id = try await stack.simulator.createItem("sku-flag-burst", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            let started = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<50 {
                    group.addTask {
                        try await stack.relay.post("/v1/items/\(id)/flag", token: support, json: #"{"reason": "other", "comment": "burst \#(n)"}"#).status
                    }
                }
                // A webhook's change during the burst is reconciled promptly: flags never take its share.
                try await Task.sleep(for: .seconds(1))
                let during = try await stack.simulator.createItem("sku-flag-during", result: "authentic", final: true)
                #expect(try await stack.waitFor(during, result: "authentic", timeout: .seconds(5)))
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            let flags = try await stack.simulator.call(.GET, "/_sim/flags").1
            let peak = flags["peak_per_second"]?.doubleValue ?? 99
            #expect(statuses.count == 50 && statuses.allSatisfy { [201, 409].contains($0) }, "\(statuses)")
            #expect(flags["requests"]?.doubleValue == 50)
            #expect(peak >= 1 && peak <= 6, "peak \(peak) flag requests in a second; took \(ContinuousClock.now - started)")
        }
    }
}
