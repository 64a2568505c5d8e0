import Foundation
import RelayModel
import Testing

/// A sync pass walks the widest window due, so its cost follows what changed.
@Suite struct SyncTiersTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theStandardTiers() throws {
        let tiers = SyncTiers.standard
        #expect(tiers.tiers.map(\.name) == ["1d", "7d", "all"])
        #expect(tiers.description == SyncTiers.standardText)
        // Nothing completed yet: the whole window.
        #expect(tiers.due(now: now, lastCompleted: [:])?.name == "all")
        // The whole window 2 h ago, the week 2 h ago: the week is due (hourly), not the whole.
        let twoHours = now.addingTimeInterval(-7_200)
        #expect(tiers.due(now: now, lastCompleted: ["1d": twoHours, "7d": twoHours, "all": twoHours])?.name == "7d")
        // Everything 10 minutes ago: only the last day.
        let recent = now.addingTimeInterval(-600)
        #expect(tiers.due(now: now, lastCompleted: ["1d": recent, "7d": recent, "all": recent])?.name == "1d")
        // A day after the whole window: the whole window again.
        #expect(tiers.due(now: now, lastCompleted: ["1d": recent, "7d": recent, "all": now.addingTimeInterval(-86_400)])?.name == "all")
        #expect(tiers.covered(by: tiers.tiers[1]) == ["1d", "7d"])
        #expect(tiers.everyPass?.name == "1d")
        #expect(try SyncTiers("1d@15m,all@1d").everyPass == nil && (try SyncTiers("all@0")).everyPass == nil)
        #expect(tiers.span(of: tiers.tiers[1], lookback: .seconds(3 * 86_400)) == .seconds(3 * 86_400))
        #expect(tiers.span(of: tiers.tiers[2], lookback: .seconds(90 * 86_400)) == .seconds(90 * 86_400))
    }

    @Test func noTierDueSkipsThePass() throws {
        let tiers = try SyncTiers("6h@30m,all@1d")
        let recent = now.addingTimeInterval(-60)
        #expect(tiers.due(now: now, lastCompleted: ["6h": recent, "all": recent]) == nil)
        #expect(tiers.due(now: now, lastCompleted: ["6h": now.addingTimeInterval(-1_800), "all": recent])?.name == "6h")
    }

    @Test(arguments: ["", "1d", "1d@0,7d@1h", "all@1d,1d@0", "7d@0,1d@1h,all@1d", "1d@0,1d@1h,all@1d", "1x@0,all@1d", "-1d@0,all@1d",
                      "1d@soon,all@1d", "99999999999d@0,all@1d", "1d@0,all@1d,", String(repeating: "1d@0,", count: 9) + "all@1d", "all@0@1"])
    func badTiersAreRefusedWithAReason(text: String) {
        #expect(throws: SettingProblem.self) { try SyncTiers(text) }
    }

    /// A completion that seems to lie ahead (the clock stepped back) does not stop every-pass tiers.
    @Test func everyPassMeansEveryPass() throws {
        let tiers = SyncTiers.standard
        let ahead = now.addingTimeInterval(3_600)
        #expect(tiers.due(now: now, lastCompleted: ["1d": ahead, "7d": ahead, "all": ahead])?.name == "1d")
    }

    /// A pass of a tier these settings do not name is credited only with the windows it covered.
    @Test func aPassOfAnUnknownTierCoversWhatFitsItsWindow() throws {
        let tiers = SyncTiers.standard
        let lookback = Duration.seconds(90 * 86_400)
        #expect(tiers.covered(byTierNamed: "7d", walked: .seconds(7 * 86_400), lookback: lookback) == ["1d", "7d"])
        #expect(tiers.covered(byTierNamed: "14d", walked: .seconds(14 * 86_400), lookback: lookback) == ["1d", "7d"])
        #expect(tiers.covered(byTierNamed: nil, walked: .seconds(90 * 86_400), lookback: lookback) == ["1d", "7d", "all"])
        #expect(tiers.covered(byTierNamed: "2h", walked: .seconds(7_200), lookback: lookback).isEmpty)
    }

    @Test func aSingleWholeWindowIsTheOldBehaviour() throws {
        let tiers = try SyncTiers("all@0")
        #expect(tiers.due(now: now, lastCompleted: ["all": now])?.name == "all")
    }
}
