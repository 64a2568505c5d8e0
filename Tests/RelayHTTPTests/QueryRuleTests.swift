import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import RelayModel
@testable import RelayHTTP

/// A query string a list route must refuse, and the parameter its 400 names.
struct BadQuery: Sendable, CustomTestStringConvertible {
    let uri: String
    let parameter: String
    var testDescription: String { uri }

    static let nulCursor = Base64Bytes.encodeURLSafe(Array(#"{"k": "a\u0000b"}"#.utf8))
    static let hugeTimeCursor = Base64Bytes.encodeURLSafe(Array(#"{"t": 9223372036854775807, "k": "E1"}"#.utf8))

    static let all: [BadQuery] = [
        BadQuery(uri: "/v1/items?bogus=1", parameter: "bogus"),
        BadQuery(uri: "/v1/items?limit=0", parameter: "limit"),
        BadQuery(uri: "/v1/items?limit=abc", parameter: "limit"),
        BadQuery(uri: "/v1/items?limit=1&limit=2", parameter: "limit"),
        BadQuery(uri: "/v1/items?limit=99999999999999999999999", parameter: "limit"),
        BadQuery(uri: "/v1/items?brand=", parameter: "brand"),
        BadQuery(uri: "/v1/items?brand=a%00b", parameter: "brand"),
        BadQuery(uri: "/v1/items?brand=" + String(repeating: "x", count: 257), parameter: "brand"),
        BadQuery(uri: "/v1/items?flag=maybe", parameter: "flag"),
        BadQuery(uri: "/v1/items?since=yesterday", parameter: "since"),
        BadQuery(uri: "/v1/items?since=2026-11-02&until=2026-11-01", parameter: "until"),
        BadQuery(uri: "/v1/items?last_days=7&since=2026-11-01", parameter: "last_days"),
        BadQuery(uri: "/v1/items?result_mode=all", parameter: "result_mode"),
        BadQuery(uri: "/v1/items?cursor=!!", parameter: "cursor"),
        BadQuery(uri: "/v1/items?cursor=" + nulCursor, parameter: "cursor"),
        BadQuery(uri: "/v1/items?cursor=" + hugeTimeCursor, parameter: "cursor"),
        BadQuery(uri: "/v1/deliveries?state=lost", parameter: "state"),
        BadQuery(uri: "/v1/deliveries?limit=1000", parameter: "limit"),
        BadQuery(uri: "/v1/deliveries?cursor=" + nulCursor, parameter: "cursor"),
        BadQuery(uri: "/v1/deliveries?since=yesterday", parameter: "since"),
        BadQuery(uri: "/v1/deliveries?customer_item_id=sku-1", parameter: "customer_item_id"),
        BadQuery(uri: "/v1/deliveries?channel=sms", parameter: "channel"),
        BadQuery(uri: "/v1/events?state=lost", parameter: "state"),
        BadQuery(uri: "/v1/events?cursor=" + hugeTimeCursor, parameter: "cursor"),
        BadQuery(uri: "/v1/events?until=2026-13-01", parameter: "until"),
    ]
}

@Suite("Routes: query-parameter rules, without PostgreSQL")
struct QueryRuleTests {
    @Test("a bad parameter is a 400 that names it", arguments: BadQuery.all)
    func refused(_ query: BadQuery) async throws {
        try await RouterHarness.application().test(.router) { client in
            let response = try await client.execute(uri: query.uri, method: .get, headers: RouterHarness.bearer("admin-token"))
            #expect(response.status == .badRequest)
            let message = try #require(RouterHarness.errorMessage(response))
            #expect(message.hasPrefix("parameter \"\(query.parameter)\""), "\(message)")
        }
    }

    @Test func aDeliveryIDMustBeAPositiveNumber() async throws {
        try await RouterHarness.application().test(.router) { client in
            for id in ["0", "-1", "x", "99999999999999999999"] {
                let response = try await client.execute(uri: "/v1/deliveries/\(id)/retry", method: .post,
                                                        headers: RouterHarness.bearer("support-token"))
                #expect(response.status == .badRequest, "\(id)")
            }
            let missing = try await client.execute(uri: "/v1/deliveries/2/retry", method: .post, headers: RouterHarness.bearer("support-token"))
            #expect(missing.status == .notFound)
        }
    }
}
