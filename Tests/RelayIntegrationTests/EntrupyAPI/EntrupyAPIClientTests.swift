import AsyncHTTPClient
@testable import EntrupyAPI
import RelayRuntime
import Foundation
import Logging
import RelayModel
import RelayWorker
import Testing

/// The API client against the simulator, which checks headers and rules like Entrupy.
@Suite("Entrupy API client and simulator", .timeLimit(.minutes(3)))
struct EntrupyAPIClientTests {
    @Test func aSearchPageWithUnreadableEntriesKeepsTheReadableOnes() throws {
        let page = try SearchPage.parse(JSONValue.parse(Array("""
            {"items": [{"entrupy_id": "A"}, {"status": {}}, 7, null, {"authentication_id": "B"}], "next_cursor": ["1", "B"]}
            """.utf8)))
        #expect(page.items.map(\.entrupyID) == ["A", "B"])
        #expect(page.skipped == 3)
        #expect(page.nextCursor == .array([.string("1"), .string("B")]))
    }

    func withClient(token: String = TestSimulator.token, rate: Double = 1000, routes: EntrupyAPIRoutes = .v1_4,
                    _ body: @escaping @Sendable (EntrupyAPIClient, TestSimulator) async throws -> Void) async throws {
        try await TestSimulator.with(webhookURL: nil) { sim async throws in
            try await sim.configure(["rate_limit_per_second": .number(0)])
            let http = EntrupyAPIClient.makeHTTPClient()
            let client = EntrupyAPIClient(configuration: .init(baseURL: sim.baseURL, token: token, routes: routes),
                                          http: http, budget: RateBudget(ratePerSecond: rate), logger: TestDatabase.logger)
            do {
                try await body(client, sim)
                try await http.shutdown()
            } catch {
                try? await http.shutdown()
                throw error
            }
        }
    }

    @Test func lookupGetAndErrors() async throws {
        try await withClient { api, sim in
            let id = try await sim.createItem("sku/with space?&", brand: "louis_vuitton", result: "authentic", final: true, webhook: false)
            let byCustomer = try await api.lookup(customerItemID: "sku/with space?&")
            #expect(byCustomer.entrupyID == id)
            #expect(byCustomer.brand == "louis_vuitton")
            #expect(byCustomer.certificateURL?.hasSuffix(id) == true)
            #expect(try await api.item(entrupyID: id).customerItemID == "sku/with space?&")
            await #expect(throws: EntrupyAPIError.notFound) { try await api.item(entrupyID: "NOPE") }
            try await sim.configure(["error_rate": .number(1)])
            await #expect(throws: EntrupyAPIError.server(status: 500)) { try await api.item(entrupyID: id) }
        }
    }

    /// "Retrieve Authentication Sessions": a lookup answered with a list gives the latest.
    @Test func aLookupAnsweredWithAListGivesTheLatest() async throws {
        try await withClient { api, sim in
            let first = try await sim.createItem("sku-resubmitted", result: "unidentified", final: true, webhook: false)
            try await Task.sleep(for: .milliseconds(5))
            let second = try await sim.createItem("sku-resubmitted", result: "authentic", final: true, webhook: false)
            try await sim.configure(["lookup_answers_list": .bool(true)])
            let (status, body) = try await sim.call(.GET, "/v1/lookup/authentications/sku-resubmitted",
                                                    headers: [("Authorization", "Token \(TestSimulator.token)"), ("Api-Version", "1.4")])
            #expect(status == 200 && body["items"]?.arrayValue?.compactMap { $0["entrupy_id"]?.stringValue } == [first, second])
            let latest = try await api.lookup(customerItemID: "sku-resubmitted")
            #expect(latest.entrupyID == second && latest.result == "authentic")
            await #expect(throws: EntrupyAPIError.notFound) { try await api.lookup(customerItemID: "sku-never") }
        }
    }

    @Test func aWrongTokenIsUnauthorized() async throws {
        try await withClient(token: "wrong") { api, _ in
            await #expect(throws: EntrupyAPIError.unauthorized(status: 401)) { try await api.lookup(customerItemID: "x") }
        }
    }

    @Test func rateLimitGives429WithRetryAfter() async throws {
        try await withClient { api, sim in
            try await sim.configure(["rate_limit_per_second": .number(2)])
            // Ten at once: more than the bucket holds however slowly a loaded machine sends them.
            let waits = await withTaskGroup(of: Duration?.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        do { _ = try await api.lookup(customerItemID: "none") } catch EntrupyAPIError.rateLimited(let after) {
                            return after
                        } catch {}
                        return nil
                    }
                }
                return await group.reduce(into: [Duration]()) { if let wait = $1 { $0.append(wait) } }
            }
            #expect(!waits.isEmpty)
            #expect(waits.allSatisfy { $0 == .seconds(1) })
        }
    }

    @Test func searchFiltersAndPagesToTheEnd() async throws {
        try await withClient { api, sim in
            for n in 0..<30 { _ = try await sim.createItem("sku-s\(n)", brand: n % 3 == 0 ? "adidas" : "nike", result: "authentic", final: true, webhook: false) }
            var query = SearchQuery(filters: [.init(key: "properties.brand.id", values: ["nike"])], limit: 7)
            var seen: [String] = []
            var pages = 0
            while true {
                let page = try await api.search(query)
                pages += 1
                seen += page.items.map(\.entrupyID)
                #expect(page.totalCount == (pages == 1 ? 20 : nil), "the simulator counts on the first page only")
                guard let cursor = page.nextCursor else { break }
                query.cursor = cursor
            }
            #expect(seen.count == 20 && Set(seen).count == 20)
            #expect(pages == 3)
            let both = try await api.search(SearchQuery(filters: [.init(key: "properties.brand.id", values: ["nike", "adidas"]),
                                                                   .init(key: "status.result.id", values: ["authentic"])], limit: 25))
            #expect(both.totalCount == 30 && both.items.count == 25 && both.nextCursor != nil)
            let none = try await api.search(SearchQuery(filters: [.init(key: "status.flag", values: ["flagged"])]))
            #expect(none.items.isEmpty && none.nextCursor == nil)
            await #expect(throws: (any Error).self) {
                try await api.search(SearchQuery(filters: [.init(key: "no.such.key", values: ["x"])]))
            }
        }
    }

    @Test func authorizeUserFollowsTheContract() async throws {
        try await withClient { api, _ in
            let request = AuthorizeUserRequest(sdkAuthorizationRequest: "req-1", uniqueUserID: "user-0001", email: "a@example.com", firstName: "Ada")
            #expect(request.validationError() == nil)
            let first = try await api.authorizeUser(request)
            #expect(first.username == "SimOrg-user-0001" && !first.conflict && !first.signedAuthorizationRequest.isEmpty)
            var changed = request
            changed.email = "b@example.com"
            let second = try await api.authorizeUser(changed)
            #expect(second.conflict && second.username == first.username && !second.signedAuthorizationRequest.isEmpty)
            var bad = request
            bad.uniqueUserID = "short"
            #expect(bad.validationError()?.field == "unique_user_id")
            await #expect(throws: (any Error).self) { try await api.authorizeUser(bad) }
        }
    }
}
