import Foundation
import Testing
@testable import RelayModel
@testable import RelayHTTP

/// A target's rate limit as `GET /v1/targets` and the console's Targets page show it: a target
/// with a row carries its origin's limit; one listed for its limit alone has no ID to act on.
@Suite("Targets' rate limits in the API and the console")
struct TargetRateLimitViewTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let limit = try! TargetRateLimit.parse("5/s").get()
    static let targets = [
        TargetSummary(health: TargetHealth(id: 7, key: "https://partner.example/***#0123456789abcdef", state: .open, stateSince: now),
                      held: 2, oldestHeldSince: now, rateLimit: limit),
        TargetSummary(health: TargetHealth(id: 8, key: "https://other.example", state: .disabled, stateSince: now, disabledBy: "ops"),
                      held: 0, oldestHeldSince: nil),
        TargetSummary(health: .healthy(key: "https://partner.example", at: now), held: 0, oldestHeldSince: nil, rateLimit: limit),
    ]

    @Test func theAPIShowsEachTargetsLimitOrNull() throws {
        let data = try JSONEncoder().encode(Self.targets.map(APITarget.init))
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(rows.map { $0["rate_limit"] as? String } == ["5/s", nil, "5/s"])
        #expect(rows[1]["rate_limit"] is NSNull, "always present, null when none")
        #expect(rows.map { $0["id"] as? Int } == [7, 8, 0])
    }

    @Test func theConsoleShowsTheLimitAndNoButtonsForARowlessTarget() {
        let session = ConsoleSession(caller: Caller(tokenID: 1, name: "admin", role: .admin), csrfToken: "csrf")
        let rows = ConsoleViews.targets(Self.targets, session: session, notice: nil)["targets"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["rate_limit"] as? String } == ["5/s", "–", "5/s"])
        #expect(rows.map { "\($0["id"] ?? "")" } == ["7", "8", "https://partner.example"], "row IDs stay unique")
        #expect(rows[0]["canEnable"] as? Bool == true && rows[1]["canEnable"] as? Bool == true)
        #expect(rows[2]["canEnable"] == nil && rows[2]["canDisable"] == nil, "nothing to enable or disable without a row")
    }
}
