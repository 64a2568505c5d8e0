import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import RelayModel
@testable import RelayHTTP

@Suite("Console routes: sessions and roles, without PostgreSQL")
struct ConsoleAccessTests {
    static func cookie(_ role: Role) -> HTTPFields {
        [.cookie: "relay_session=session-\(role.rawValue)", .contentType: "application/x-www-form-urlencoded"]
    }

    @Test func signedOutPagesAndFormsGoToSignIn() async throws {
        try await RouterHarness.application().test(.router) { client in
            for (method, path) in [(HTTPRequest.Method.get, "/console/items"), (.get, "/console/items/E1"),
                                   (.post, "/console/items/E1/reconcile"), (.post, "/console/deliveries/1/retry")] {
                let response = try await client.execute(uri: path, method: method, headers: [.cookie: "relay_session=forged"],
                                                        body: ByteBuffer(string: "csrf=x"))
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location] == "/console/login", "\(path)")
            }
            #expect(try await client.execute(uri: "/console/login", method: .get).status == .ok)
        }
    }

    /// The console's sign-in and the API share one count of failed tokens per address: bad
    /// tokens typed into the form earn the same 429 as bad bearer tokens, and the form signs a
    /// valid token in even then.
    @Test func signInFailuresShareTheAPIsThrottle() async throws {
        try await RouterHarness.application(failureLimit: 2).test(.router) { client in
            func signIn(_ token: String) async throws -> TestResponse {
                try await client.execute(uri: "/console/login", method: .post,
                                         headers: [.cookie: "relay_login_csrf=c1", .contentType: "application/x-www-form-urlencoded"],
                                         body: ByteBuffer(string: "csrf=c1&token=\(token)"))
            }
            #expect(try await signIn("guess-1").status == .unauthorized)
            let limited = try await signIn("guess-2")
            #expect(limited.status == .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 > 50)
            #expect(try await client.execute(uri: "/v1/items", method: .get, headers: RouterHarness.bearer("guess-3")).status == .tooManyRequests)
            #expect(try await signIn("").status == .tooManyRequests)
            let valid = try await signIn("support-token")
            #expect(valid.status == .seeOther && valid.headers[.location] == "/console/items")
        }
    }

    @Test("each role on the console", arguments: Role.allCases)
    func roles(_ role: Role) async throws {
        let items = MemoryItems()
        try await RouterHarness.application(items: items).test(.router) { client in
            let headers = Self.cookie(role)
            #expect(try await client.execute(uri: "/console/items", method: .get, headers: headers).status == .ok)
            #expect(try await client.execute(uri: "/console/items/E1", method: .get, headers: headers).status == .ok)
            let mayAct = role != .consumer
            let csrf = ByteBuffer(string: "csrf=csrf-\(role.rawValue)")
            let reconcile = try await client.execute(uri: "/console/items/E1/reconcile", method: .post, headers: headers, body: csrf)
            #expect(reconcile.status == (mayAct ? .seeOther : .forbidden))
            let retry = try await client.execute(uri: "/console/deliveries/1/retry", method: .post, headers: headers, body: csrf)
            #expect(retry.status == (mayAct ? .seeOther : .forbidden))
            if mayAct {
                #expect(retry.headers[.location] == "/console/items/E1?done=retried#delivery-1")
                let forged = try await client.execute(uri: "/console/items/E1/reconcile", method: .post, headers: headers,
                                                      body: ByteBuffer(string: "csrf=csrf-other"))
                #expect(forged.status == .forbidden)
            }
            #expect(items.refetches.withLock { $0 } == (mayAct ? ["E1"] : []))
        }
    }
}
