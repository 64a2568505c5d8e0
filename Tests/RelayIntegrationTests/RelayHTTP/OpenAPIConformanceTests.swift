import Foundation
import Testing
import RelayModel

/// PyPI's schemathesis against the live server, with the document the server serves and every
/// check it has: no 5xx, no status, content type, header or body the document does not
/// describe, no value it allows refused and none it forbids accepted, 405 for undeclared
/// methods, 401 for wrong credentials (deploy/test-servers/schemathesis.toml allows, per
/// operation, only what a schema cannot state).
@Suite("OpenAPI conformance (schemathesis)", .timeLimit(.minutes(5)))
struct OpenAPIConformanceTests {
    @Test func schemathesisFindsNoServerErrorAndNoSchemaViolation() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            // schemathesis sends hundreds of wrong tokens from one address, and checks each is
            // answered 401: the failed sign-in limit (429 past it) is raised out of its way.
            var env = try NotifyEnvironment.failingCallback(callbacks, schedule: "50ms")
            env["ENTRUPY_RELAY_AUTH_FAILURE_LIMIT"] = "100000"
            try await ReconcileStack.with(env: env) { stack async throws in
                // Data for every shape: items with and without deliveries, webhooks, dead deliveries with attempts.
                try await APIAccess.seedItems(stack.database, count: 60)
                let id = try await stack.simulator.createItem("sku-openapi", result: "authentic", final: true)
                _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .dead)
                let token = try await APIAccess.token(stack.database, role: .admin)
                let python = try TestServerProcess.python()
                let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
                let report = try TestServerProcess.temporaryDirectory("schemathesis")
                defer { try? FileManager.default.removeItem(at: report) }
                let config = TestServerProcess.root.appendingPathComponent("deploy/test-servers/schemathesis.toml").path
                let run = try await CommandLineTests.run([
                    "--config-file", config, "run", "http://127.0.0.1:\(stack.relay.port)/openapi.json",
                    "--checks", "all",
                    "--header", "Authorization: Bearer \(token)", "--max-examples", "40", "--seed", "20261121",
                    "--request-timeout", "20", "--report-dir", report.path, "--no-color",
                ], env: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": report.path,
                         "SCHEMATHESIS_HOOKS": "", "PYTHONUNBUFFERED": "1"], executable: schemathesis)
                #expect(run.status == 0, "schemathesis failed:\n\(run.stdout.suffix(6000))\n\(run.stderr.suffix(2000))")
                // Every operation was exercised, with many generated requests, and none failed.
                #expect(run.stdout.contains("Tested: 27"), "\(run.stdout.suffix(3000))")
                let summary = run.stdout.split(separator: "\n").first { $0.contains(" generated, ") }.map(String.init) ?? ""
                let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                // "N generated, N passed" (and perhaps ", K skipped": cases hypothesis could not build).
                #expect(numbers.count >= 2 && numbers[0] == numbers[1] && numbers[0] > 500, "\(summary)")
            }
        }
    }
}
