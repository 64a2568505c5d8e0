import Foundation
import RelayModel
import Testing

/// `/readyz` tells the truth about Entrupy, without making the receiver unready.
@Suite("Entrupy's health in readiness", .timeLimit(.minutes(3)))
struct EntrupyHealthTests {
    /// The details are on the operations port (ENTRUPY_RELAY_METRICS_PORT): the public `/readyz` says only ready or not.
    static func readiness(_ port: Int) async throws -> (Int, JSONValue) {
        let probe = HTTPProbe(port: port)
        let body = try await probe.body("/readyz")
        return (try await probe.status("/readyz"), try JSONValue.parse(Array(body.utf8)))
    }

    @Test func aGoodTokenIsReportedOK() async throws {
        let operations = try await freePort()
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_METRICS_PORT": String(operations)]) { stack async throws in
            #expect(try await eventually { try await Self.readiness(operations).1[path: "checks.entrupy"]?.stringValue == "ok" })
            #expect(try await eventually {
                let (status, json) = try await Self.readiness(operations)
                return status == 200 && json["ready"]?.boolValue == true
            })
            // The public port says as much, and nothing about Entrupy or the migrations.
            let response = try await stack.relay.get("/readyz", token: nil)
            #expect(response.status == 200 && response.json?["checks"] as? [String: String] == [:], "\(response.body)")
        }
    }

    @Test func aWrongTokenIsReportedButTheReceiverStaysReady() async throws {
        let operations = try await freePort()
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "wrong-token", "ENTRUPY_RELAY_METRICS_PORT": String(operations)]) { stack async throws in
            #expect(try await eventually {
                try await Self.readiness(operations).1[path: "checks.entrupy"]?.stringValue?.hasPrefix("token refused (401)") == true
            })
            // Ready all the same (the database check has a 1 s deadline a loaded machine can miss once: ask again).
            #expect(try await eventually {
                let (status, json) = try await Self.readiness(operations)
                return status == 200 && json["ready"]?.boolValue == true && json[path: "checks.entrupy"]?.stringValue?.hasPrefix("token refused") == true
            })
            // Webhooks are still stored.
            #expect(try await stack.relay.post(WebhookFixture.entrupy(#"{"id":"while-refused","entrupy_id":"E-1"}"#)).status == 200)
        }
    }

    @Test func aWorkerReplicaReportsEntrupyDownOnItsOwnPort() async throws {
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            // Nothing listens on port 9 of the loopback: Entrupy is unreachable.
            let worker = try RelayProcess(["worker", "--port", String(port)], database: db, env: [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": "http://127.0.0.1:9", "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "any-token", "ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "0",
            ])
            let probe = HTTPProbe(port: port)
            // The HTTP client retries a refused connection until the request timeout (ENTRUPY_RELAY_ENTRUPY_API_TIMEOUT_SECONDS, 10 s).
            #expect(try await eventually(timeout: .seconds(40), every: .milliseconds(500)) {
                let ready = (try? JSONValue.parse(Array(try await probe.body("/readyz").utf8))) ?? .null
                return ready[path: "checks.entrupy"]?.stringValue?.hasPrefix("unreachable: Entrupy API: no answer") == true
            })
            let ready = try JSONValue.parse(Array(try await probe.body("/readyz").utf8))
            #expect(ready["ready"]?.boolValue == true)
            let metrics = try await probe.body("/metrics")
            #expect(metrics.contains("relay_entrupy_up 0"))
            #expect(metrics.contains(#"relay_entrupy_api_requests_total{route="health",status="error"}"#))
            #expect(await worker.stop() == 0)
        }
    }
}
