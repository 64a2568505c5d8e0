import Foundation
import Testing
@testable import RelayModel

@Suite("Query parsing")
struct QueryParsingTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func filtersRepeatAndCombine() throws {
        let query = try ItemSearchQuery.parse([("brand", "nike"), ("brand", "adidas"), ("result", "authentic"), ("flag", "flagged"),
                                               ("customer_item_id", "sku 1"), ("limit", "50"), ("result_mode", "count_only")], now: now)
        #expect(query.brands == ["nike", "adidas"] && query.results == ["authentic"] && query.flags == ["flagged"])
        #expect(query.customerItemIDs == ["sku 1"] && query.limit == 50 && query.countOnly)
        #expect(try ItemSearchQuery.parse([], now: now) == ItemSearchQuery())
    }

    @Test func datesAndLastDays() throws {
        let days = try ItemSearchQuery.parse([("last_days", "7")], now: now)
        #expect(days.since == now.addingTimeInterval(-7 * 86_400) && days.until == nil)
        let range = try ItemSearchQuery.parse([("since", "2026-11-01"), ("until", "2026-11-02T12:00:00Z")], now: now)
        #expect(range.since == ISODate.parse("2026-11-01") && range.until == ISODate.parse("2026-11-02T12:00:00Z"))
    }

    /// Issue 12: as people type them.
    @Test func searchTermsAsPeopleTypeThem() throws {
        let query = try ItemSearchQuery.parse([("brand", "Louis Vuitton"), ("brand", "NIKE"), ("result", "Unidentified"),
                                               ("result", "Under Review"), ("flag", "Flagged"), ("category", "Sneakers")], now: now)
        #expect(query.brands == ["louis_vuitton", "nike"] && query.results == ["unknown", "needs_review"])
        #expect(query.flags == ["flagged"] && query.categories == ["sneakers"])
        // A date alone as `until` includes that whole day; `since` starts it.
        let day = try ItemSearchQuery.parse([("since", "2026-11-20"), ("until", "2026-11-20")], now: now)
        #expect(day.since == ISODate.parse("2026-11-20T00:00:00Z") && day.until == ISODate.parse("2026-11-21T00:00:00Z"))
        // Epoch seconds where ISO dates are accepted, fractions too.
        let epoch = try ItemSearchQuery.parse([("since", "1763596800"), ("until", "1763683200.5")], now: now)
        #expect(epoch.since == Date(timeIntervalSince1970: 1_763_596_800) && epoch.until == Date(timeIntervalSince1970: 1_763_683_200.5))
        let events = try EventListQuery.parse([("until", "2026-11-20")])
        #expect(events.until == ISODate.parse("2026-11-21T00:00:00Z"))
    }

    @Test func problemsNameTheParameter() {
        let cases: [([(String, String)], String, String)] = [
            ([("limit", "0")], "limit", "must be a whole number from 1 to 100"),
            ([("limit", "ten")], "limit", "must be a whole number from 1 to 100"),
            ([("flag", "maybe")], "flag", "must be one of none, flagged, resolved, not \"maybe\""),
            ([("colour", "red")], "colour", "unknown parameter"),
            ([("since", "last week")], "since", "must be an ISO 8601 date"),
            ([("last_days", "3"), ("until", "2026-11-01")], "last_days", "cannot be combined with since or until"),
            ([("since", "2026-11-03"), ("until", "2026-11-02")], "until", "must be later than since"),
            ([("since", "2026-11-02T00:00:00Z"), ("until", "2026-11-02T00:00:00Z")], "until", "must be later than since"),
            ([("since", "1e10")], "since", "must be an ISO 8601 date"),
            ([("since", "-5")], "since", "must be an ISO 8601 date"),
            ([("since", "99999999999999")], "since", "must be an ISO 8601 date"),
            ([("until", "1.2.3")], "until", "must be an ISO 8601 date"),
            ([("cursor", "!!")], "cursor", "is not a cursor this server gave out"),
            ([("cursor", PageCursor(key: "12").text)], "cursor", "is not a cursor of this list"),
            ([("brand", "")], "brand", "must not be empty"),
            ([("brand", String(repeating: "x", count: 257))], "brand", "at most 256 characters"),
            ([("brand", "a\u{0}b")], "brand", "must not contain control characters"),
            (Array(repeating: ("brand", "x"), count: 51), "brand", "at most 50 values"),
            ([("limit", "1"), ("limit", "2")], "limit", "may be given only once"),
        ]
        for (pairs, parameter, message) in cases {
            do {
                _ = try ItemSearchQuery.parse(pairs, now: now)
                Issue.record("accepted \(pairs)")
            } catch {
                #expect(error.parameter == parameter && error.message.hasPrefix(message), "\(pairs): \(error)")
            }
        }
    }

    @Test func cursorsRoundTripAndRejectForgeries() throws {
        let cursor = PageCursor(time: 1_763_000_000_123_456, key: "ent-ÄÖ/+=")
        #expect(PageCursor(text: cursor.text) == cursor)
        #expect(!cursor.text.contains("+") && !cursor.text.contains("/") && !cursor.text.contains("="))
        #expect(PageCursor(text: PageCursor(key: "42").text)?.id == 42)
        for forged in ["", "abc", Base64Bytes.encodeURLSafe(Array(#"{"t": 1.5, "k": "x"}"#.utf8)),
                       Base64Bytes.encodeURLSafe(Array(#"{"t": 1}"#.utf8)), Base64Bytes.encodeURLSafe(Array(#"[1]"#.utf8)),
                       Base64Bytes.encodeURLSafe(Array(#"{"k": "a\u0000b"}"#.utf8)),
                       Base64Bytes.encodeURLSafe(Array(#"{"t": 9223372036854775807, "k": "x"}"#.utf8)),
                       Base64Bytes.encodeURLSafe(Array(#"{"t": 1e300, "k": "x"}"#.utf8))] {
            #expect(PageCursor(text: forged) == nil, "\(forged)")
        }
    }

    @Test func aPageFetchedWithOneExtraRowEndsOrContinues() {
        let more = PageCursor.page([9, 8, 7, 6] as [Int64], limit: 3, id: { $0 })
        #expect(more.shown == [9, 8, 7] && more.next == PageCursor(key: "7"))
        let last = PageCursor.page([9, 8, 7] as [Int64], limit: 3, id: { $0 })
        #expect(last.shown == [9, 8, 7] && last.next == nil)
        #expect(PageCursor.page([] as [Int64], limit: 3, id: { $0 }).next == nil)
    }

    @Test func filterPairsReproduceTheQuery() throws {
        let query = try ItemSearchQuery.parse([("brand", "nike"), ("flag", "none"), ("since", "2026-11-01T00:00:00Z")], now: now)
        #expect(try ItemSearchQuery.parse(query.filterPairs, now: now) == query)
    }

    @Test func formEncodingDecodesPlusPercentAndUTF8() throws {
        let pairs = try FormURLEncoding.decode("a=1&brand=louis+vuitton&id=sku%2F%C3%A9&flag&&empty=")
        #expect(pairs.map(\.0) == ["a", "brand", "id", "flag", "empty"])
        #expect(pairs.map(\.1) == ["1", "louis vuitton", "sku/é", "", ""])
        #expect(throws: QueryParameterError("brand", "malformed percent-encoding")) { try FormURLEncoding.decode("brand=%ZZ") }
        #expect(throws: QueryParameterError("brand", "is not valid UTF-8")) { try FormURLEncoding.decode("brand=%FF") }
        let text = "sku/é & more+"
        #expect(try FormURLEncoding.decode(FormURLEncoding.encode([("k y", text)])).first.map { [$0.0, $0.1] } == ["k y", text])
    }

    @Test func eventAndDeliveryListsCheckTheirOwnParameters() throws {
        let events = try EventListQuery.parse([("state", "failed"), ("entrupy_id", "e1"), ("cursor", PageCursor(key: "90").text)])
        #expect(events.states == [.failed] && events.entrupyIDs == ["e1"] && events.before == 90)
        #expect(throws: QueryParameterError.self) { try EventListQuery.parse([("state", "lost")]) }
        let deliveries = try DeliveryListQuery.parse([("state", "dead"), ("item", "e1"), ("limit", "5")])
        #expect(deliveries.search.state == .dead && deliveries.search.item == "e1" && deliveries.limit == 5)
        #expect(throws: QueryParameterError.self) { try DeliveryListQuery.parse([("item", "a"), ("item", "b")]) }
        let search = try DeliveryListQuery.parse([("rule", "partner"), ("target", "https://p.example/***"), ("channel", "webhook"),
                                                  ("since", "2026-11-01"), ("until", "2026-11-02"), ("webhook_id", "dlv_1")]).search
        #expect(search == DeliverySearch(webhookID: "dlv_1", rule: "partner", target: "https://p.example/***", channel: .webhook,
                                         since: ISODate.parse("2026-11-01"), until: ISODate.parse("2026-11-03")))
        for bad in [("channel", "sms"), ("rule", ""), ("target", String(repeating: "x", count: 257)), ("since", "soon"),
                    ("rule", "a\u{7}b")] {
            #expect(throws: QueryParameterError.self, "\(bad)") { try DeliveryListQuery.parse([bad]) }
        }
        #expect(throws: QueryParameterError.self) { try DeliveryListQuery.parse([("since", "2026-11-02"), ("until", "2026-11-01")]) }
    }
}
