import Foundation
import RelayModel

/// Signed webhook requests as Entrupy (or a re-signing gateway) would send them.
struct WebhookFixture {
    static let secret = "test-secret-\(UUID().uuidString)"
    static let standardSecret = "whsec_" + Data("standard-webhooks-test-key-32byte".utf8).base64EncodedString()

    var body: [UInt8]
    var headers: [(String, String)]

    static func entrupy(_ json: String, secret: String = secret) -> WebhookFixture {
        let body = Array(json.utf8)
        let signature = EntrupySignatureVerifier.sign(body: body, secret: .entrupy(secret))
        return WebhookFixture(body: body, headers: [("Content-Type", "application/json"), ("Entrupy-Signature", "sha256=" + signature)])
    }

    static func standard(_ json: String, id: String, timestamp: Date = Date()) -> WebhookFixture {
        let body = Array(json.utf8)
        let ts = Int64(timestamp.timeIntervalSince1970)
        let signature = StandardWebhookVerifier.sign(id: id, timestamp: ts, body: body, secret: WebhookSecret.standardWebhooks(standardSecret)!)
        return WebhookFixture(body: body, headers: [
            ("Content-Type", "application/json"), ("webhook-id", id), ("webhook-timestamp", String(ts)), ("webhook-signature", signature),
        ])
    }

    /// A distinct, well-formed session.completed event.
    static func session(_ n: Int, run: String = UUID().uuidString) -> WebhookFixture {
        entrupy(#"{"event":"session.completed","id":"evt-\#(run)-\#(n)","entrupy_id":"ENT-\#(n)","text_fields":{"customer_item_id":"sku-\#(n)"}}"#)
    }
}
