import Foundation
import RelayModel
import Testing

/// What the relay shows the outside (issue 10, item 12): HTTPS-only hints when it is public
/// over HTTPS, metrics off the public port, and no callback credentials anywhere.
@Suite("Public surface", .timeLimit(.minutes(2)))
struct PublicSurfaceTests {
    /// An https ENTRUPY_RELAY_PUBLIC_URL: every answer carries Strict-Transport-Security, and console cookies
    /// are Secure although no proxy said the request came over HTTPS.
    @Test func anHTTPSPublicURLMeansHSTSAndSecureCookies() async throws {
        try await TestDatabase.with { db async throws in
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_PUBLIC_URL": "https://relay.example.com"]) { relay async throws in
                let health = try await relay.request("/healthz")
                #expect(health.header("Strict-Transport-Security") == "max-age=31536000")
                let missing = try await relay.request("/v1/items")
                #expect(missing.status == 401)
                #expect(missing.header("Strict-Transport-Security") == "max-age=31536000", "error answers too")
                let login = try await relay.request("/console/login")
                let cookie = try #require(login.header("Set-Cookie"))
                #expect(cookie.contains("Secure"), "\(cookie)")
            }
            try await TestRelay.with(database: db) { relay async throws in
                #expect(try await relay.request("/healthz").header("Strict-Transport-Security") == nil)
                let cookie = try #require(try await relay.request("/console/login").header("Set-Cookie"))
                #expect(!cookie.contains("Secure"), "plain HTTP with no proxy and no ENTRUPY_RELAY_PUBLIC_URL: \(cookie)")
            }
        }
    }

    /// ENTRUPY_RELAY_METRICS_PORT moves /metrics off the port the proxy exposes.
    @Test func metricsMoveToTheirOwnPort() async throws {
        try await TestDatabase.with { db async throws in
            let metricsPort = try await freePort()
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_METRICS_PORT": String(metricsPort)]) { relay async throws in
                #expect(try await relay.request("/metrics").status == 404)
                #expect(try await relay.request("/healthz").status == 200)
                let probe = HTTPProbe(port: metricsPort)
                #expect(try await eventually { (try? await probe.status("/metrics")) == 200 })
                // Which release runs: said to operators (the metric, the operations port's
                // readiness), not to the public port.
                #expect(try await probe.body("/metrics").contains("relay_build_info{version=\"\(RelayRelease.version)\"} 1"))
                #expect(try await probe.body("/readyz").contains("\"version\":\"\(RelayRelease.version)\""))
                #expect(try await relay.request("/readyz").json?["version"] == nil)
            }
        }
    }
}
