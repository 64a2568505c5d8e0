import AsyncHTTPClient
import EntrupyAPI
import Foundation
import RelayModel
import RelayRuntime
import Testing

/// Issue 27, 7: AsyncHTTPClient's deadline ends at the response head, so an API that drips its
/// body held a lookup (and a sync's lock) for as long as it dripped. Now the whole exchange is bounded.
@Suite("Entrupy's answers are bounded whole", .timeLimit(.minutes(3)))
struct EntrupyDripTests {
    @Test func aDrippedBodyEndsAtTheRequestTimeout() async throws {
        try await HostileHTTPPeer.with { peer async throws in
            let http = EntrupyAPIClient.makeHTTPClient()
            var configuration = EntrupyAPIConfiguration(baseURL: peer.url("/dripping"), token: "t")
            configuration.requestTimeout = .seconds(2)
            let api = EntrupyAPIClient(configuration: configuration, http: http, budget: RateBudget(ratePerSecond: 100),
                                       logger: TestDatabase.logger)
            let started = ContinuousClock.now
            await #expect(throws: EntrupyAPIError.self) { try await api.item(entrupyID: "E-1") }
            let took = ContinuousClock.now - started
            // The body drips for 100,000 × 200 ms; the call ends at its 2 s deadline (c765048 waited for it all).
            #expect(took < .seconds(6), "\(took)")
            // v2's get asks for the item's images (issue 45).
            #expect(peer.counts.count("/dripping/v2/authentications/E-1?include_images=true") == 1)
            try await http.shutdown()
        }
    }
}
