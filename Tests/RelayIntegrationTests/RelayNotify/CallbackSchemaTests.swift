import Foundation
import RelayModel
import Testing

/// The OpenAPI document describes every callback the relay sends: each transition kind is a
/// callback type under `webhooks`, and real callbacks, one of each kind, are valid against
/// their type's schema (checked by a JSON Schema validator, not by the relay's own code).
@Suite("Callbacks against the OpenAPI document", .timeLimit(.minutes(3)))
struct CallbackSchemaTests {
    static let rules = """
        rules:
          - name: every-transition
            when: {transition: [\(TransitionKind.allCases.map { $0.rawValue }.joined(separator: ", "))]}
            notify:
              - webhook: {url: "URL", secret: "${CALLBACK_SECRET}"}
        """

    /// Runs the checker on these bodies; answers the types it checked and what failed.
    static func check(document: String, bodies: [String]) throws -> (types: [String], failures: [String]) {
        let folder = try TestServerProcess.temporaryDirectory("callback-schemas")
        defer { try? FileManager.default.removeItem(at: folder) }
        let documentFile = folder.appendingPathComponent("openapi.json"), bodiesFile = folder.appendingPathComponent("bodies.jsonl")
        try document.write(to: documentFile, atomically: true, encoding: .utf8)
        try bodies.joined(separator: "\n").write(to: bodiesFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestServerProcess.python())
        process.arguments = [TestServerProcess.root.appendingPathComponent("deploy/test-servers/callback_schema_check.py").path,
                             documentFile.path, bodiesFile.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let result = try #require(JSONValue(jsonText: String(decoding: data, as: UTF8.self)), "checker said: \(String(decoding: data, as: UTF8.self))")
        return ((result["types"]?.arrayValue ?? []).compactMap(\.stringValue), (result["failures"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    @Test func everyTransitionsCallbackIsValidAgainstItsSchema() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules.replacingOccurrences(of: "URL", with: callbacks.url("/ok")),
                                                 extra: ["ENTRUPY_RELAY_OVERDUE_AFTER": "1h", "ENTRUPY_RELAY_OVERDUE_INTERVAL_SECONDS": "1"])
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-schemas")
                #expect(try await eventually { try await stack.timeline(id).contains("item.created") })
                // One change at a time, each reconciled before the next, so each is its own transition.
                let steps: [(String, @Sendable () async throws -> Void)] = [
                    ("result.changed", { try await stack.simulator.setResult(id, "unknown", final: false) }),
                    ("result.retake_requested", {
                        try await stack.simulator.call(.POST, "/_sim/items/\(id)/result", .object([
                            "result": .string("data_required"), "final": .bool(false), "retake_reasons": .array([.string("Blurry tag")]),
                            "customer_state": .string("awaiting_photos"),
                        ]))
                    }),
                    // Back in review (a data_required item waits on the seller, never overdue), and submitted
                    // two hours ago as far as the relay knows: past the 1h threshold, still not final.
                    ("result.overdue", {
                        try await stack.simulator.setResult(id, "needs_review", final: false)
                        #expect(try await stack.waitFor(id, result: "needs_review"))
                        try await TestDatabase.withClient(stack.database) { client in
                            _ = try await client.query("UPDATE items SET submitted_at = now() - interval '2 hours' WHERE entrupy_id = \(id)",
                                                       logger: TestDatabase.logger)
                        }
                    }),
                    ("result.final", { try await stack.simulator.setResult(id, "authentic", final: true) }),
                    ("flag.raised", { try await stack.simulator.setFlag(id, "flagged") }),
                    ("flag.cleared", { try await stack.simulator.setFlag(id, "none") }),
                    ("flag.resolved", { try await stack.simulator.setFlag(id, "resolved") }),
                    ("flag.reviewed", { try await stack.simulator.setFlag(id, "reviewed_ok") }),
                    ("flag.changed", { try await stack.simulator.setFlag(id, "none") }),
                ]
                for (kind, change) in steps {
                    try await change()
                    #expect(try await eventually { try await stack.timeline(id).contains(kind) }, "\(kind) never reached the timeline")
                }
                let kinds = Set(TransitionKind.allCases.map(\.rawValue))
                let timeline = try await stack.timeline(id)
                #expect(kinds.isSubset(of: Set(timeline)), "every kind happened: \(timeline)")
                let received = try await callbacks.waitForRequests(timeline.count, path: "/ok")
                #expect(received.allSatisfy { $0.verified }, "every callback verified with standardwebhooks")

                let document = try await stack.relay.request("/openapi.json").body
                let bodies = received.map(\.body.jsonText)
                let checked = try Self.check(document: document, bodies: bodies)
                #expect(checked.failures.isEmpty, "\(checked.failures)")
                #expect(Set(checked.types) == kinds, "a callback of every kind was checked: \(checked.types)")

                // The checker can fail: a body with an unknown field, a wrong type and a date that is not one.
                let raised = try #require(received.first { $0.body["type"]?.stringValue == "flag.raised" }?.body)
                guard case .object(var body) = raised, case .object(var data)? = body["data"] else {
                    Issue.record("a callback body is not an object"); return
                }
                data["extra"] = .number(1)
                body["data"] = .object(data)
                body["type"] = .string("flag.cleared")
                body["timestamp"] = .string("yesterday")
                let broken = JSONValue.object(body).jsonText
                let refused = try Self.check(document: document, bodies: [broken, #"{"type":"item.deleted","data":{}}"#])
                #expect(refused.failures.count >= 3, "\(refused.failures)")
                #expect(refused.failures.contains { $0.contains("item.deleted") })
            }
        }
    }
}
