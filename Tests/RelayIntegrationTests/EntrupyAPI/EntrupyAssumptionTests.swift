import Foundation
import RelayModel
import RelayStore
import Testing

/// Issue 30: the relay against a simulator that breaks, on demand, what we assume of Entrupy.
/// Each test shows the relay either works or says what differs.
@Suite("What we assume of Entrupy, broken on purpose", .timeLimit(.minutes(3)))
struct EntrupyAssumptionTests {
    /// Entrupy sends session.completed for fingerprinting sessions too: recorded, and never
    /// looked up (a lookup could only answer 404 for half an hour, then fail the event).
    @Test func aFingerprintingSessionIsRecordedWithoutALookup() async throws {
        try await ReconcileStack.with { stack async throws in
            let (status, answer) = try await stack.simulator.call(.POST, "/_sim/fingerprints", .object([
                "customer_item_id": .string("sku-fp-1"), "mode": .string("register"),
            ]))
            #expect(status == 201)
            let session = try #require(answer["entrupy_id"]?.stringValue)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM webhook_events WHERE entrupy_id = '\(session)'") == 1 })
            #expect(try await stack.count("""
                SELECT count(*) FROM webhook_events WHERE entrupy_id = '\(session)' AND state = 'unrecognised'
                  AND parse_error = '\(WebhookPayloadParser.fingerprintNote)'
                """) == 1)
            // An authentication's webhook after it is reconciled as ever, and nothing asked about the session.
            let item = try await stack.simulator.createItem("sku-fp-1", result: "authentic", final: true)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM items WHERE entrupy_id = '\(item)'") == 1 })
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE args->>'webhook_event_id' IN (SELECT id::text FROM webhook_events WHERE entrupy_id = '\(session)')") == 0)
            #expect(try await stack.count("SELECT count(*) FROM items WHERE entrupy_id = '\(session)'") == 0)
        }
    }

    /// v2's flag value reviewed_ok is a flag reviewed, and a value nobody documented a flag
    /// changed: each a transition on the timeline that rules can match, never a silent change.
    @Test func everyFlagValueIsATransition() async throws {
        try await ReconcileStack.with { stack async throws in
            let item = try await stack.simulator.createItem("sku-flags", result: "authentic", final: true)
            #expect(try await eventually { try await stack.timeline(item).contains("result.final") })
            try await stack.simulator.setFlag(item, "flagged")
            #expect(try await eventually { try await stack.timeline(item).contains("flag.raised") })
            try await stack.simulator.setFlag(item, "reviewed_ok")
            #expect(try await eventually { try await stack.timeline(item).contains("flag.reviewed") })
            try await stack.simulator.setFlag(item, "none")
            #expect(try await eventually { try await stack.timeline(item).contains("flag.changed") })
            #expect(try await stack.timeline(item) == ["item.created", "result.final", "flag.raised", "flag.reviewed", "flag.changed"])
            #expect(try await stack.count("SELECT count(*) FROM item_events WHERE entrupy_id = '\(item)' AND kind = 'flag.reviewed' AND from_value = 'flagged' AND to_value = 'reviewed_ok'") == 1)
        }
    }

    /// Entrupy's search may answer nothing without a category filter (the SDK says so): every
    /// sync search carries one, more categories can be named, and a pass that sees nothing while
    /// the relay holds items in its window says so in `sync status`, where it used to report a
    /// complete pass and nothing else.
    @Test func aSyncSearchesByCategoryAndSaysWhenItSeesNothing() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            try await stack.simulator.configure(["search_requires_category": .bool(true)])
            let sneaker = try await stack.simulator.createItem("sku-cat-1", result: "authentic", final: true, webhook: false)
            let (status, created) = try await stack.simulator.call(.POST, "/_sim/items", .object([
                "customer_item_id": .string("sku-watch-1"), "category": .string("watches"), "result": .string("authentic"),
                "final": .bool(true), "webhook": .bool(false),
            ]))
            #expect(status == 201)
            let watch = try #require(created["entrupy_id"]?.stringValue)
            var env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": stack.simulator.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
            ])
            let known = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(known.status == 0 && known.stdout.contains("1 items checked") && known.stdout.contains("1 changed"), "\(known.stdout) \(known.stderr)")
            #expect(try await stack.waitFor(sneaker, result: "authentic", timeout: .seconds(1)))
            env["ENTRUPY_RELAY_SYNC_CATEGORIES"] = "watches"
            let widened = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(widened.stdout.contains("2 items checked") && widened.stdout.contains("1 changed"), "\(widened.stdout) \(widened.stderr)")
            #expect(try await stack.waitFor(watch, result: "authentic", timeout: .seconds(1)))

            // The search answers nothing at all now (a filter Entrupy wants that the relay does not send, say).
            try await stack.simulator.configure(["search_answers_nothing": .bool(true)])
            let blind = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(blind.status == 0 && blind.stdout.contains("0 items checked"), "\(blind.stdout) \(blind.stderr)")
            let said = try await CommandLineTests.run(["sync", "status"], env: env)
            #expect(said.stdout.contains("last error: the pass saw no items while the relay holds 2 submitted in its window"), "\(said.stdout)")
            // Once the search answers again, the next complete pass clears it.
            try await stack.simulator.configure(["search_answers_nothing": .bool(false)])
            _ = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(!(try await CommandLineTests.run(["sync", "status"], env: env)).stdout.contains("last error"))
        }
    }

    /// A pass resumed after a restart whose last pages are empty saw items in its earlier runs:
    /// no warning.
    @Test func aResumedPassThatEndsOnAnEmptyPageIsNotBlind() async throws {
        try await ReconcileStack.with { stack async throws in
            let item = try await stack.simulator.createItem("sku-resumed", result: "authentic", final: true)
            #expect(try await stack.waitFor(item, result: "authentic", timeout: .seconds(10)))
            try await TestDatabase.withClient(stack.database) { client in
                let store = PostgresSyncStore(client: client, logger: TestDatabase.logger)
                _ = try await store.resumeOrStart(tiers: .standard, lookback: .seconds(86_400))
                // An earlier run walked a page of 25, and its cursor is past every item.
                try await store.checkpoint(cursor: .array([.string("0"), .string("A")]), items: 25, changes: 0)
            }
            let env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": stack.simulator.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
            ])
            let run = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(run.status == 0 && run.stdout.contains("0 items checked"), "\(run.stdout) \(run.stderr)")
            let status = try await CommandLineTests.run(["sync", "status", "--json"], env: env)
            let json = try JSONValue.parse(Array(status.stdout.utf8))
            #expect(json["last_items_checked"]?.int64Value == 25 && (json["last_error"] ?? .null) == .null, "\(status.stdout)")
        }
    }

    /// If Entrupy signs another way than we assume, every webhook is refused: what it presents is
    /// counted and kept by shape (never the value or the body) for admins, and `webhooks verify`
    /// says what a capture would match.
    @Test func aRefusedWebhookIsDescribedByItsShape() async throws {
        try await TestRelay.withFresh { relay async throws in
            let body = #"{"event":"session.completed","entrupy_id":"E-SIG"}"#
            // The registry is the test process's: other suites' relays count into it too, so compare before and after.
            func counts() async throws -> [String: Double] {
                var found: [String: Double] = [:]
                for line in try await relay.request("/metrics").body.split(separator: "\n") where line.hasPrefix("relay_webhook_rejections_total{") {
                    let parts = line.split(separator: " ")
                    found[String(parts[0])] = Double(parts.last ?? "") ?? 0
                }
                return found
            }
            let before = try await counts()
            let stamped = "t=1700000000,v1=" + String(repeating: "ab", count: 32)
            let base64 = Data(repeating: 7, count: 32).base64EncodedString()
            for value in [stamped, base64] {
                let refused = try await relay.request("/webhooks/entrupy", method: .POST,
                                                      headers: [("Entrupy-Signature", value), ("Content-Type", "application/json")], body: Array(body.utf8))
                #expect(refused.status == 401)
            }
            #expect(try await relay.request("/webhooks/entrupy", method: .POST, headers: [("Content-Type", "application/json")],
                                            body: Array(body.utf8)).status == 401)
            let after = try await counts()
            for series in [#"relay_webhook_rejections_total{header="entrupy-signature",encoding="timestamped",reason="invalid_signature"}"#,
                           #"relay_webhook_rejections_total{header="entrupy-signature",encoding="base64",reason="invalid_signature"}"#,
                           #"relay_webhook_rejections_total{header="none",encoding="none",reason="missing_signature"}"#] {
                // At least ours: suites running beside this one may refuse webhooks of the same shape.
                #expect((after[series] ?? 0) - (before[series] ?? 0) >= 1, "\(series): \(after)")
            }
            let admin = try await APIAccess.token(relay.database, role: .admin)
            let listed = try await relay.get("/v1/events/rejections?limit=10", token: admin)
            #expect(listed.status == 200, "\(listed.body)")
            let rows = try #require(listed.json?["rejections"] as? [[String: Any]])
            #expect(rows.map { $0["encoding"] as? String } == ["none", "base64", "timestamped"])
            #expect(rows.map { $0["reason"] as? String } == ["missing_signature", "invalid_signature", "invalid_signature"])
            #expect(rows[1]["value_length"] as? Int == 44 && rows[1]["body_bytes"] as? Int == body.utf8.count)
            #expect(!listed.body.contains(base64) && !listed.body.contains("abababab") && !listed.body.contains("E-SIG"))
            #expect(try await relay.get("/v1/events/rejections?limit=0", token: admin).status == 400)

            let cli = try await CommandLineTests.run(["events", "rejections"], env: CommandLineTests.environment(relay.database))
            #expect(cli.status == 0 && cli.stdout.contains("invalid_signature  entrupy-signature  timestamped of 80 characters"), "\(cli.stdout)\(cli.stderr)")

            // webhooks verify: a capture against the configured secrets.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).json")
            try Data(body.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let env = CommandLineTests.environment(relay.database, ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret])
            let signed = EntrupySignatureVerifier.sign(body: Array(body.utf8), secret: .entrupy(WebhookFixture.secret))
            let good = try await CommandLineTests.run(["webhooks", "verify", "--body", file.path, "--header", "Entrupy-Signature: \(signed)"], env: env)
            #expect(good.status == 0 && good.stdout.contains("accepted: Entrupy-Signature with secret 1 of 1 (key_"), "\(good.stdout)\(good.stderr)")
            let bad = try await CommandLineTests.run(["webhooks", "verify", "--body", file.path, "--header", "Entrupy-Signature: \(stamped)"], env: env)
            #expect(bad.status == 1 && bad.stdout.contains("the header is timestamped"), "\(bad.stdout)\(bad.stderr)")
        }
    }

    /// The table keeps about the newest 1,000, however many are refused.
    @Test func rejectionsAreBounded() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let repository = PostgresWebhookEventStore(client: client, logger: TestDatabase.logger)
            let shape = SignatureShape(headers: ["entrupy-signature"], encoding: "hex", length: 64, reason: "invalid_signature")
            for _ in 0..<1_010 {
                try await repository.recordRejection(SignatureRejection(shape: shape, bodyBytes: 10, clientAddress: "203.0.113.9", requestID: nil))
            }
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM webhook_rejections") == PostgresWebhookEventStore.rejectionsKept)
            #expect(try await repository.rejections(limit: 5).count == 5)
        }
    }
}
