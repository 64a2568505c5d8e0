import Foundation
import RelayModel
import RelayNotify
import RelayWorker
import Testing

/// A callback planned unsendable (its body template rendered invalid JSON for the item) fails
/// for good with the planner's reason, and nothing is sent.
@Suite("Unsendable callbacks")
struct UnsendableCallbackTests {
    @Test func theDelivererFailsItForGoodWithTheReasonAndSendsNothing() async throws {
        let reason = "the body template rendered invalid JSON for this item (invalid JSON at byte 20: expected , or })"
            + "; nothing was sent, as the relay sends no body the rule did not write"
        // Any send to this URL would fail otherwise (a refused private address), with another error.
        let payload = DeliveryPayload.webhook(.init(url: "http://127.0.0.1:9/hook", headers: [], body: "", unsendable: reason))
        var delivery = DeliveryHandlerTests.delivery(7)
        delivery.payload = payload
        let sender = CallbackSender(timeout: .seconds(2), connectionsPerHost: 1, allowPrivate: false)
        let rules = try ReconcilePipelineTests.rules()
        let report = await CallbackDeliverer(sender: sender, rules: rules).deliver(delivery)
        await sender.shutdown()
        #expect(report.result == .permanent)
        #expect(report.error == reason)
        #expect(report.cause == .delivery, "the rule's fault, not the target's health")
        #expect(report.statusCode == nil)
    }
}
