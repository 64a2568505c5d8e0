import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import RelayModel
@testable import RelayHTTP

/// One API route and who may call it, written out here rather than read from `Role.allows`,
/// so a change to either side shows up as a failing case.
struct APIRoute: Sendable, CustomTestStringConvertible {
    let method: HTTPRequest.Method
    let path: String
    let body: String?
    let allowed: Set<Role>
    /// What an allowed caller gets from the in-memory stores.
    let success: HTTPResponse.Status

    var testDescription: String { "\(method) \(path)" }

    static let sdkBody = #"{"sdk_authorization_request": "req", "unique_user_id": "user-0001", "email": "a@example.com"}"#

    static let all: [APIRoute] = [
        APIRoute(method: .get, path: "/v1/items", body: nil, allowed: [.admin, .support, .consumer], success: .ok),
        APIRoute(method: .get, path: "/v1/items/E1", body: nil, allowed: [.admin, .support, .consumer], success: .ok),
        APIRoute(method: .post, path: "/v1/items/E1/reconcile", body: nil, allowed: [.admin, .support], success: .accepted),
        // No Entrupy API in the harness: an allowed caller with a valid body reaches the 503 that says so.
        APIRoute(method: .post, path: "/v1/items/import", body: #"{"customer_item_id": "sku-1"}"#, allowed: [.admin, .support],
                 success: .serviceUnavailable),
        APIRoute(method: .get, path: "/v1/deliveries", body: nil, allowed: [.admin, .support], success: .ok),
        APIRoute(method: .post, path: "/v1/deliveries/1/retry", body: nil, allowed: [.admin, .support], success: .accepted),
        APIRoute(method: .post, path: "/v1/deliveries/retry", body: #"{"rule": "notify", "dry_run": true}"#, allowed: [.admin, .support], success: .ok),
        APIRoute(method: .get, path: "/v1/targets", body: nil, allowed: [.admin, .support], success: .ok),
        APIRoute(method: .post, path: "/v1/targets/1/disable", body: nil, allowed: [.admin, .support], success: .ok),
        APIRoute(method: .post, path: "/v1/targets/1/enable", body: nil, allowed: [.admin, .support], success: .ok),
        APIRoute(method: .post, path: "/v1/targets/test", body: #"{"rule": "notify", "action": 0}"#, allowed: [.admin], success: .ok),
        APIRoute(method: .get, path: "/v1/events", body: nil, allowed: [.admin], success: .ok),
        APIRoute(method: .get, path: "/v1/changes?after=0.1", body: nil, allowed: [.admin, .support, .consumer], success: .ok),
        APIRoute(method: .get, path: "/v1/events/rejections", body: nil, allowed: [.admin], success: .ok),
        // No Entrupy API in the harness: an allowed caller with a valid body reaches the 503 that says so.
        APIRoute(method: .post, path: "/v1/sdk/authorize", body: sdkBody, allowed: [.admin, .consumer], success: .serviceUnavailable),
    ]
}

@Suite("Routes: every role on every route, without PostgreSQL")
struct RouteAccessTests {
    @Test("no token, a bad token, and each role", arguments: APIRoute.all)
    func roleMatrix(_ route: APIRoute) async throws {
        try await RouterHarness.application().test(.router) { client in
            let body = route.body.map { ByteBuffer(string: $0) }
            try await client.execute(uri: route.path, method: route.method, body: body) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="entrupy-relay""#)
                #expect(RouterHarness.errorMessage(response) == "send Authorization: Bearer <token>")
            }
            try await client.execute(uri: route.path, method: route.method, headers: RouterHarness.bearer("nope"), body: body) { response in
                #expect(response.status == .unauthorized)
                #expect(RouterHarness.errorMessage(response) == "invalid or revoked token")
            }
            try await client.execute(uri: route.path, method: route.method, headers: [.authorization: "Basic abc"], body: body) { response in
                #expect(response.status == .unauthorized)
            }
            for role in Role.allCases {
                try await client.execute(uri: route.path, method: route.method,
                                         headers: RouterHarness.bearer(MemoryTokens.token(for: role)), body: body) { response in
                    let expected = route.allowed.contains(role) ? route.success : .forbidden
                    #expect(response.status == expected, "\(role.rawValue) on \(route.testDescription)")
                    if expected == .forbidden {
                        #expect(RouterHarness.errorMessage(response)?.hasPrefix("a \(role.rawValue) token may not") == true)
                    }
                }
            }
        }
    }

    @Test func consumersSeeItemsWithoutWebhooksOrDeliveries() async throws {
        try await RouterHarness.application().test(.router) { client in
            let consumer = try await client.execute(uri: "/v1/items/C1", method: .get, headers: RouterHarness.bearer("consumer-token"))
            let shown = try #require(RouterHarness.json(consumer))
            #expect(shown["entrupy_id"] as? String == "E1")
            #expect(shown["webhooks"] == nil && shown["deliveries"] == nil)
            let support = try await client.execute(uri: "/v1/items/E1", method: .get, headers: RouterHarness.bearer("support-token"))
            let full = try #require(RouterHarness.json(support))
            #expect((full["webhooks"] as? [Any])?.count == 1)
            #expect((full["deliveries"] as? [[String: Any]])?.first?["attempt_history"] as? [Any] != nil)
            // Every documented key is present, null when unknown.
            #expect(full.keys.contains("submitted_at") && full["submitted_at"] is NSNull)
            #expect(full.keys.contains("certificate_url") && full["certificate_url"] is NSNull)
            let missing = try await client.execute(uri: "/v1/items/nope", method: .get, headers: RouterHarness.bearer("support-token"))
            #expect(missing.status == .notFound)
        }
    }

    @Test func everyListIsShapedOneWay() async throws {
        try await RouterHarness.application().test(.router) { client in
            let admin = RouterHarness.bearer("admin-token")
            for (path, name) in [("/v1/items", "items"), ("/v1/deliveries", "deliveries"), ("/v1/events", "events")] {
                let page = try #require(RouterHarness.json(try await client.execute(uri: path, method: .get, headers: admin)))
                #expect((page[name] as? [Any])?.count == 1, "\(path)")
                #expect(page.keys.contains("next_cursor") && page["next_cursor"] is NSNull, "\(path)")
            }
            let items = try #require(RouterHarness.json(try await client.execute(uri: "/v1/items", method: .get, headers: admin)))
            #expect(items["item_count"] as? Int == 1 && items["total_count"] as? Int == 1 && items["total_count_exact"] as? Bool == true)
            let deliveries = try #require(RouterHarness.json(try await client.execute(uri: "/v1/deliveries", method: .get, headers: admin)))
            let delivery = try #require((deliveries["deliveries"] as? [[String: Any]])?.first)
            #expect(delivery["next_attempt_at"] is NSNull && delivery["state"] as? String == "dead")
        }
    }

    @Test func failedTokensAreThrottledButValidOnesNeverRefused() async throws {
        try await RouterHarness.application(failureLimit: 2).test(.router) { client in
            #expect(try await client.execute(uri: "/v1/items", method: .get, headers: RouterHarness.bearer("guess-1")).status == .unauthorized)
            let limited = try await client.execute(uri: "/v1/items", method: .get, headers: RouterHarness.bearer("guess-2"))
            #expect(limited.status == .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 > 50)
            #expect(try await client.execute(uri: "/v1/items", method: .get, headers: RouterHarness.bearer("guess-3")).status == .tooManyRequests)
            #expect(try await client.execute(uri: "/v1/items", method: .get, headers: RouterHarness.bearer("consumer-token")).status == .ok)
        }
    }

    /// ENTRUPY_RELAY_API_TOKEN_CONCURRENCY: one token's requests beyond the limit are refused at once (429),
    /// other tokens are not affected, and the slot is free again once a request ends.
    @Test func oneTokensRequestsUnderWayAreCapped() async throws {
        let gate = SearchGate()
        try await RouterHarness.application(items: MemoryItems(gate: gate), tokenConcurrency: 2).test(.router) { client in
            let support = RouterHarness.bearer("support-token")
            let held = (0..<2).map { _ in Task { try await client.execute(uri: "/v1/items", method: .get, headers: support) } }
            #expect(try await eventuallyTrue { gate.waitingCount == 2 })
            let refused = try await client.execute(uri: "/v1/items", method: .get, headers: support)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(RouterHarness.errorMessage(refused)?.contains("already has 2 requests under way") == true)
            // Another token has slots of its own (it waits at the gate like the others).
            let other = Task { try await client.execute(uri: "/v1/items", method: .get, headers: RouterHarness.bearer("admin-token")) }
            #expect(try await eventuallyTrue { gate.waitingCount == 3 })
            gate.open()
            for request in held { #expect(try await request.value.status == .ok) }
            #expect(try await other.value.status == .ok)
            #expect(try await client.execute(uri: "/v1/items", method: .get, headers: support).status == .ok)
        }
    }

}

/// Polls `condition` for up to five seconds.
func eventuallyTrue(_ condition: @escaping @Sendable () -> Bool) async throws -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
