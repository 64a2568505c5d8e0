import Foundation
import Testing
import RelayModel

@Suite("Query API access", .timeLimit(.minutes(3)))
struct QueryAPIAccessTests {
    @Test func everyRouteNeedsAValidTokenAndTheRightRole() async throws {
        try await TestDatabase.with { db async throws in
            let admin = try await APIAccess.token(db, role: .admin)
            let support = try await APIAccess.token(db, role: .support)
            let consumer = try await APIAccess.token(db, role: .consumer, name: "partner-app")
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                let anonymous = try await relay.get("/v1/items", token: nil)
                #expect(anonymous.status == 401)
                #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(anonymous.message == "send Authorization: Bearer <token>")
                #expect(try await relay.request("/v1/items", headers: [("Authorization", "Token \(admin)")]).status == 401)
                let wrong = try await relay.get("/v1/items", token: "ert_not-a-real-token")
                #expect(wrong.status == 401 && wrong.message == "invalid or revoked token")

                // Who may do what.
                let matrix: [(String, String, String, Int)] = [
                    (consumer, "GET", "/v1/items", 200), (consumer, "GET", "/v1/deliveries", 403), (consumer, "GET", "/v1/events", 403),
                    (consumer, "POST", "/v1/deliveries/1/retry", 403), (consumer, "POST", "/v1/items/x/reconcile", 403),
                    (support, "GET", "/v1/items", 200), (support, "GET", "/v1/deliveries", 200), (support, "GET", "/v1/events", 403),
                    (support, "POST", "/v1/deliveries/1/retry", 404), (support, "POST", "/v1/items/x/reconcile", 404),
                    (support, "POST", "/v1/sdk/authorize", 403),
                    (admin, "GET", "/v1/events", 200), (admin, "GET", "/v1/deliveries", 200), (admin, "GET", "/v1/items/x", 404),
                ]
                for (token, method, path, expected) in matrix {
                    let response = method == "GET" ? try await relay.get(path, token: token) : try await relay.post(path, token: token)
                    #expect(response.status == expected, "\(method) \(path) with a \(token == admin ? "admin" : token == support ? "support" : "consumer") token: \(response.body)")
                    #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                }
                let forbidden = try await relay.get("/v1/events", token: support)
                #expect(forbidden.message == "a support token may not read events")

                // The body of the OpenAPI document is public and parses.
                let document = try await relay.request("/openapi.json")
                #expect(document.status == 200 && (document.json?["openapi"] as? String) == "3.1.0")
            }

            // Revoking takes effect on the next request.
            let revoke = try await CommandLineTests.run(["tokens", "revoke", "partner-app"], env: CommandLineTests.environment(db))
            #expect(revoke.status == 0 && revoke.stdout == "token \"partner-app\" revoked\n")
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                #expect(try await relay.get("/v1/items", token: consumer).status == 401)
            }
        }
    }

    @Test func failedTokensAreRateLimitedPerClientBehindTrustedProxies() async throws {
        try await TestDatabase.with { db async throws in
            let support = try await APIAccess.token(db, role: .support)
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_AUTH_FAILURE_LIMIT": "3", "ENTRUPY_RELAY_AUTH_FAILURE_WINDOW_SECONDS": "60"],
                                     worker: false) { relay async throws in
                // The tests talk from 127.0.0.1, a trusted proxy by default: X-Forwarded-For names the client.
                let guesser = [("X-Forwarded-For", "203.0.113.7")]
                #expect(try await relay.get("/v1/items", token: "ert_guess1", headers: guesser).status == 401)
                #expect(try await relay.get("/v1/items", token: "ert_guess2", headers: guesser).status == 401)
                let limited = try await relay.get("/v1/items", token: "ert_guess3", headers: guesser)
                #expect(limited.status == 429)
                #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 50)
                #expect(try await relay.get("/v1/items", token: "ert_guess4", headers: guesser).status == 429)
                // Only failures are throttled: a valid token from the same address (everyone behind
                // one proxy that is not trusted shares it) is never refused for someone else's guesses.
                #expect(try await relay.get("/v1/items", token: support, headers: guesser).status == 200)
                // Another client behind the same proxy is not affected.
                #expect(try await relay.get("/v1/items", token: support, headers: [("X-Forwarded-For", "203.0.113.8")]).status == 200)
                // Missing headers are not guesses and are not counted.
                for _ in 0..<5 { #expect(try await relay.get("/v1/items", token: nil, headers: [("X-Forwarded-For", "203.0.113.9")]).status == 401) }
                #expect(try await relay.get("/v1/items", token: support, headers: [("X-Forwarded-For", "203.0.113.9")]).status == 200)
            }
        }
    }
}
