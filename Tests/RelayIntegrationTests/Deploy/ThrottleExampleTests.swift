import Foundation
import Testing

/// The shipped throttle example (issue 46) loads with the real `rules check`, which lists each
/// target's rate limit; a hostile rate is refused with its line.
@Suite("Throttle rules example")
struct ThrottleExampleTests {
    @Test func theThrottleExampleLoadsAndListsItsLimits() async throws {
        let example = TestServerProcess.root.appendingPathComponent("deploy/rules/throttle.yaml")
        let env = ["PATH": "/usr/bin:/bin", "PARTNER_SECRET": WebhookFixture.standardSecret]
        let loaded = try await CommandLineTests.run(["rules", "check", example.path], env: env)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.hasPrefix("\(example.path): ok, 2 rules"), "\(loaded.stdout)")
        #expect(loaded.stdout.contains("  target https://partner.example: at most 5/s\n  target smtp: at most 30/m\n"), "\(loaded.stdout)")

        let text = try String(contentsOf: example, encoding: .utf8).replacingOccurrences(of: "rate_limit: 5/s", with: "rate_limit: 0/s")
        let hostile = FileManager.default.temporaryDirectory.appendingPathComponent("throttle-\(UUID().uuidString).yaml")
        try text.write(to: hostile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: hostile) }
        let refused = try await CommandLineTests.run(["rules", "check", hostile.path], env: env)
        let line = (text.components(separatedBy: "\n").firstIndex { $0.contains("rate_limit: 0/s") } ?? 0) + 1
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("line \(line): targets[0].rate_limit: \"0/s\": must be more than 0"), "\(refused.stderr)")
    }
}
