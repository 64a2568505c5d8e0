import Foundation
import RelayModel
import Testing

/// What a delivery waits for, among the earlier unsettled deliveries of its item that its load
/// read (same channel and `target` column, latest first): the first to the same target as
/// `TargetKey` defines it.
@Suite("Order per item and target: the blocker")
struct DeliveryOrderBlockerTests {
    static func delivery(_ channel: DeliveryChannel = .webhook, url: String = "https://partner.example/hooks/a",
                         operational: Bool = false) -> DeliveryRecord {
        let payload: DeliveryPayload = channel == .webhook
            ? .webhook(.init(url: url, headers: [], body: "{}"))
            : .email(.init(to: ["ops@example.com"], subject: "s", text: "t", html: nil))
        return DeliveryRecord(id: 10, itemEventID: operational ? nil : 1, entrupyID: operational ? nil : "E1",
                              operationalEventID: operational ? 5 : nil, rule: "r", actionIndex: 0, channel: channel,
                              target: channel == .webhook ? MaskedURL.mask(url) : "ops@example.com", payload: payload,
                              idempotencyKey: "dlv_10", state: .pending, attempts: 0, scheduleBase: 0,
                              createdAt: Date(timeIntervalSince1970: 1_780_000_000), transition: "result.final")
    }

    static func candidate(_ id: Int64, _ url: String) -> DeliveryOrderBlocker.Candidate {
        DeliveryOrderBlocker.Candidate(id: id, url: url, dueIn: .seconds(id))
    }

    @Test func theLatestEarlierOneToTheSameEndpointIsTheBlocker() {
        let candidates = [Self.candidate(9, "https://partner.example/hooks/b"), Self.candidate(8, "https://PARTNER.example:443/hooks/a?x=1"),
                          Self.candidate(7, "https://partner.example/hooks/a")]
        #expect(DeliveryOrderBlocker.first(among: candidates, for: Self.delivery()) == DeliveryOrderBlocker(id: 8, dueIn: .seconds(8)))
    }

    @Test func anotherPathOnTheSameHostHoldsNothing() {
        let candidates = [Self.candidate(9, "https://partner.example/hooks/b"), Self.candidate(8, "https://partner.example/")]
        #expect(DeliveryOrderBlocker.first(among: candidates, for: Self.delivery()) == nil)
    }

    @Test func anEmailWaitsForTheLatestEarlierOneToItsRecipients() {
        // The load matched the recipients (`target`); an email carries no URL.
        let candidates = [Self.candidate(9, ""), Self.candidate(4, "")]
        #expect(DeliveryOrderBlocker.first(among: candidates, for: Self.delivery(.email))?.id == 9)
    }

    @Test func anOperationalDeliveryIsNeverHeld() {
        let candidates = [Self.candidate(9, "https://partner.example/hooks/a")]
        #expect(DeliveryOrderBlocker.first(among: candidates, for: Self.delivery(operational: true)) == nil)
        #expect(DeliveryOrderBlocker.first(among: [], for: Self.delivery()) == nil)
    }

    @Test func onlyAWaitingDeliveryShowsWhatItIsHeldBehind() {
        var held = Self.delivery()
        held.heldBehind = 7
        #expect(held.shownHeldBehind == 7)
        held.state = .delivered
        #expect(held.shownHeldBehind == nil)
    }
}
