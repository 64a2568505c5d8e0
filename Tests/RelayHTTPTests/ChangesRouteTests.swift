import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import RelayModel
@testable import RelayHTTP

@Suite("GET /v1/changes on an in-memory feed")
struct ChangesRouteTests {
    static let consumer = RouterHarness.bearer(MemoryTokens.token(for: .consumer))

    @Test func pagesFollowTheCursor() async throws {
        try await RouterHarness.application().test(.router) { client in
            try await client.execute(uri: "/v1/changes?limit=1", method: .get, headers: Self.consumer) { response in
                #expect(response.status == .ok)
                let json = try #require(RouterHarness.json(response))
                let changes = try #require(json["changes"] as? [[String: Any]])
                #expect(changes.count == 1)
                #expect(changes.first?["cursor"] as? String == "0.1")
                #expect(changes.first?["kind"] as? String == "item.created")
                #expect(changes.first?.keys.contains("from") == true, "absent values are null, not left out")
                #expect(json["next_cursor"] as? String == "0.1")
            }
            try await client.execute(uri: "/v1/changes?after=0.1", method: .get, headers: Self.consumer) { response in
                let json = try #require(RouterHarness.json(response))
                #expect((json["changes"] as? [[String: Any]])?.map { $0["cursor"] as? String } == ["740.2"])
                #expect(json["next_cursor"] as? String == "740.2")
            }
            // At the end, the reader keeps its place.
            try await client.execute(uri: "/v1/changes?after=740.2&wait=0", method: .get, headers: Self.consumer) { response in
                let json = try #require(RouterHarness.json(response))
                #expect((json["changes"] as? [Any])?.isEmpty == true)
                #expect(json["next_cursor"] as? String == "740.2")
            }
        }
    }

    @Test func aWaitEndsEmptyWhenNothingComes() async throws {
        try await RouterHarness.application().test(.router) { client in
            let started = ContinuousClock.now
            try await client.execute(uri: "/v1/changes?after=740.2&wait=1", method: .get, headers: Self.consumer) { response in
                #expect(response.status == .ok)
                #expect((RouterHarness.json(response)?["changes"] as? [Any])?.isEmpty == true)
            }
            #expect(ContinuousClock.now - started >= .milliseconds(900), "it waited for the next change")
        }
    }

    @Test("bad parameters are 400 with the parameter named", arguments: [
        ("after=", "after"), ("after=1", "after"), ("after=1.2.3", "after"), ("after=-1.2", "after"),
        ("after=99999999999999999999.1", "after"), ("limit=0", "limit"), ("limit=1001", "limit"), ("wait=31", "wait"),
        ("wait=-1", "wait"), ("after=1.2&after=1.3", "after"), ("since=2026-01-01", "since"),
    ])
    func badParameters(_ query: String, _ parameter: String) async throws {
        try await RouterHarness.application().test(.router) { client in
            try await client.execute(uri: "/v1/changes?\(query)", method: .get, headers: Self.consumer) { response in
                #expect(response.status == .badRequest)
                #expect(RouterHarness.errorMessage(response)?.contains(parameter) == true, "\(RouterHarness.errorMessage(response) ?? "")")
            }
        }
    }
}
