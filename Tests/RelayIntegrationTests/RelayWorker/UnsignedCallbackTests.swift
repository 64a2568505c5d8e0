import Foundation
import RelayModel
import RelayNotify
import RelayRules
import RelayWorker
import Testing

/// Issue 46: a delivery stored unsigned (a chat preset's target) is sent without the Standard
/// Webhooks headers; a signed one is signed as before, and one whose secret left the rules is
/// still held back (transient) rather than sent unsigned.
@Suite("Unsigned chat deliveries and signed ones", .timeLimit(.minutes(1)))
struct UnsignedCallbackTests {
    static func delivery(_ url: String, unsigned: Bool, keyID: String?) -> DeliveryRecord {
        DeliveryRecord(id: 1, itemEventID: 1, entrupyID: "E1", rule: "chat", actionIndex: 0, channel: .webhook, target: MaskedURL.mask(url),
                       payload: .webhook(.init(url: url, headers: [], body: #"{"text": "E1 is authentic"}"#, unsigned: unsigned)),
                       signingKeyID: keyID, idempotencyKey: "dlv_unsigned_\(unsigned)_\(keyID ?? "-")", state: .pending, attempts: 0,
                       scheduleBase: 0, createdAt: Date(), transition: "result.final")
    }

    @Test func unsignedGoesWithoutSignatureHeadersAndAMissingSecretStillHoldsASignedOne() async throws {
        try await TestChatSink.with("slack") { sink in
            let folder = try TestServerProcess.temporaryDirectory("unsigned-rules")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("rules.yaml")
            try """
                rules:
                  - name: chat
                    notify:
                      - webhook: {url: "\(sink.url)", preset: slack, secret: "\(TestCallbackServer.secret)"}
                """.write(to: file, atomically: true, encoding: .utf8)
            let rules = try RulesStore(path: file.path, parser: RuleSetParser(secret: { _ in nil }))
            let keyID = try #require(WebhookSecret.standardWebhooks(TestCallbackServer.secret)?.fingerprint)
            let sender = CallbackSender(timeout: .seconds(10), connectionsPerHost: 2, allowPrivate: true)
            let deliverer = CallbackDeliverer(sender: sender, rules: rules)

            let unsigned = await deliverer.deliver(Self.delivery(sink.url, unsigned: true, keyID: nil))
            #expect(unsigned.result == .delivered, "\(unsigned.error ?? "")")
            let signed = await deliverer.deliver(Self.delivery(sink.url, unsigned: false, keyID: keyID))
            #expect(signed.result == .delivered, "\(signed.error ?? "")")
            let gone = await deliverer.deliver(Self.delivery(sink.url, unsigned: false, keyID: "key_gone"))
            #expect(gone.result == .transient)
            #expect(gone.error == "signing secret key_gone is not in the rules in force")
            let noKey = await deliverer.deliver(Self.delivery(sink.url, unsigned: false, keyID: nil))
            #expect(noKey.result == .transient, "a signed delivery without its key is never sent unsigned")
            await sender.shutdown()

            let requests = sink.requests()
            #expect(requests.count == 2, "the deliveries without their secret were not sent")
            #expect(requests.first.map { !$0.signed && $0.webhookHeaders.isEmpty } == true, "\(requests.first?.webhookHeaders ?? [])")
            #expect(requests.last.map { $0.signed && $0.verified } == true)
            #expect(requests.last?.webhookHeaders == ["webhook-id", "webhook-signature", "webhook-timestamp"])
        }
    }
}
