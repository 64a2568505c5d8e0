import Foundation
import Testing
import RelayModel

@Suite("The console", .timeLimit(.minutes(3)))
struct ConsoleTests {
    /// Sign in, search, open an item, retry a delivery, sign out: in headless Chromium, with a
    /// screenshot of each step kept in test-artifacts/console/.
    @Test func supportStaffWorkThroughTheConsoleInChromium() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            var env = try NotifyEnvironment.failingCallback(callbacks, schedule: "50ms,50ms")
            // The suite's v1.4 items name no flag reasons: the setting offers the simulator's.
            env["ENTRUPY_RELAY_ENTRUPY_FLAG_REASONS"] = "result_disputed,wrong_item_details,other"
            try await ReconcileStack.with(env: env) { stack async throws in
                try await APIAccess.seedItems(stack.database, count: 25)
                let id = try await stack.simulator.createItem("sku-console", result: "authentic", final: true)
                let delivery = try #require(try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .dead).first)
                // Issue 12: an item with everything (photos, a flag with its reason, a submitter, a resubmission), and one never seen.
                _ = try await stack.simulator.createItem("sku-dispute", result: "unknown", final: true)
                let (_, full) = try await stack.simulator.call(.POST, "/_sim/items", .object([
                    "customer_item_id": .string("sku-dispute"), "brand": .string("louis_vuitton"), "username": .string("org-u7"),
                    "photos": .number(JSONNumber(4)), "flag_style": .string("object"), "result": .string("invalid"), "final": .bool(true),
                    "result_reason": .string("the label is not legible"), "style_code": .string("M40712")]))
                let dispute = try #require(full["entrupy_id"]?.stringValue)
                try await stack.simulator.call(.POST, "/_sim/items/\(dispute)/flag", .object([
                    "flag": .string("flagged"),
                    "flag_info": .object(["id": .string("fi-7"), "label": .string("Customer disputes"), "message": .string("Says the bag is genuine.")])]))
                try await TestDatabase.withClient(stack.database) { client in
                    try await client.query("""
                        INSERT INTO sdk_users (unique_user_id, username, email, first_name, last_name)
                        VALUES ('emp-42', 'org-u7', 'ana@example.com', 'Ana', 'Lima')
                        """, logger: TestDatabase.logger)
                }
                #expect(try await stack.waitFor(dispute, flag: "flagged"))
                // Its final result's delivery is dead too: the walk redrives it in bulk.
                _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: dispute, count: 1, state: .dead)
                _ = try await stack.simulator.createItem("sku-never-seen", result: "authentic", final: true, webhook: false)
                let token = try await APIAccess.token(stack.database, role: .support, name: "console-tester")
                let out = TestServerProcess.root.appendingPathComponent("test-artifacts/console")
                try? FileManager.default.removeItem(at: out)
                let run = try await CommandLineTests.run([
                    TestServerProcess.root.appendingPathComponent("deploy/test-servers/console_browser.py").path,
                    "--base", "http://127.0.0.1:\(stack.relay.port)", "--token", token, "--item", "sku-console",
                    "--delivery", String(delivery.id), "--out", out.path, "--dispute", dispute, "--unseen", "sku-never-seen", "--dispute-id", dispute,
                    "--flag", id,
                ], env: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                         "HOME": FileManager.default.temporaryDirectory.path], executable: try TestServerProcess.python())
                #expect(run.status == 0 && run.stdout.hasSuffix("ok\n"), "\(run.stdout)\n\(run.stderr.suffix(3000))")
                for name in ["01-sign-in", "02-items", "03-search", "04-item", "05-retried", "06-overview", "07-dispute",
                             "08-import-offer", "09-imported", "10-deliveries", "11-bulk-count", "12-bulk-retried", "13-targets", "14-flagged"] {
                    let data = try? Data(contentsOf: out.appendingPathComponent("\(name).png"))
                    #expect((data?.count ?? 0) > 5_000 && data?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "\(name).png")
                }
                // The click really retried it, with the same idempotency key.
                #expect(try await eventually { try await NotifyEnvironment.deliveries(stack.database, item: id).first?.attempts == 6 })
                #expect(try callbacks.requests().filter { $0.webhookID == delivery.idempotencyKey }.count == 6)
                // The bulk retry ran once, recorded as the console's, and gave the dispute's delivery a fresh set of attempts.
                #expect(try await eventually { try await NotifyEnvironment.deliveries(stack.database, item: dispute).first?.attempts == 6 })
                #expect(try await stack.count("""
                    SELECT count(*) FROM bulk_actions WHERE requested_by = 'console console-tester' AND matched = 1 AND queued = 1
                      AND filters->>'item' = '\(dispute)' AND filters->>'state' = 'dead'
                    """) == 1)
                #expect(try await stack.count("SELECT count(*) FROM delivery_targets WHERE state = 'healthy' AND disabled_by IS NULL") == 1)
                // The flag went to Entrupy once, recorded as the console user's (issue 45).
                #expect(try await stack.count("""
                    SELECT count(*) FROM flag_requests WHERE entrupy_id = '\(id)' AND requested_by = 'console console-tester'
                      AND reason = 'result_disputed' AND state = 'succeeded'
                    """) == 1)
            }
        }
    }

    @Test func sessionsAreHTTPOnlyStrictCookiesAndFormsNeedTheirCSRFToken() async throws {
        try await TestDatabase.with { db async throws in
            try await APIAccess.seedItems(db, count: 3)
            let token = try await APIAccess.token(db, role: .consumer, name: "shop")
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                #expect(try await relay.request("/console/items").status == 303)
                let page = try await relay.request("/console/login")
                let loginCookie = try #require(page.header("Set-Cookie"))
                #expect(loginCookie.contains("HttpOnly") && loginCookie.contains("SameSite=Strict") && loginCookie.contains("Path=/console"))
                #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
                let csrf = try #require(page.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.prefix { $0 != "\"" })
                let cookieValue = loginCookie.prefix { $0 != ";" }
                func signIn(_ form: String, cookie: String) async throws -> TestRelay.Response {
                    try await relay.request("/console/login", method: .POST, headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)], body: Array(form.utf8))
                }
                // Without the double-submitted token the form is refused, even with a good API token.
                #expect(try await signIn("token=\(token)&csrf=forged", cookie: String(cookieValue)).status == 403)
                let signedIn = try await signIn("token=\(token)&csrf=\(csrf)", cookie: String(cookieValue))
                #expect(signedIn.status == 303 && signedIn.header("Location") == "/console/items")
                let session = try #require(signedIn.headers.first { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("relay_session=") }?.1)
                #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict"))
                let sessionCookie = String(session.prefix { $0 != ";" })
                let items = try await relay.request("/console/items?brand=nike", headers: [("Cookie", sessionCookie)])
                #expect(items.status == 200 && items.body.contains("shop (consumer)") && !items.body.contains("<script"))
                let bad = try await relay.request("/console/items?flag=maybe", headers: [("Cookie", sessionCookie)])
                #expect(bad.status == 400 && bad.body.contains("parameter &quot;flag&quot;"))
                // A consumer sees no deliveries and no retry; a forged retry is refused.
                let item = try await relay.request("/console/items/seed-1", headers: [("Cookie", sessionCookie)])
                #expect(item.status == 200 && !item.body.contains("<h2>Deliveries</h2>"))
                let forged = try await relay.request("/console/deliveries/1/retry", method: .POST, headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", sessionCookie)], body: Array("csrf=nope".utf8))
                #expect(forged.status == 403)
            }
        }
    }
}
