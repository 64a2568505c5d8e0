import Crypto
import Foundation
import Testing
@testable import RelayModel

@Suite("Entrupy-Signature verification")
struct EntrupySignatureTests {
    let body = Array(#"{"event":"session.completed","entrupy_id":"ENT-1"}"#.utf8)
    let secret = WebhookSecret.entrupy("s3cret-one")
    let other = WebhookSecret.entrupy("s3cret-two")

    func mac(_ secret: WebhookSecret, _ body: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret.keyBytes)))
    }

    @Test("accepts every documented encoding", arguments: ["hex", "HEX", "base64", "base64url", "sha256=hex", "SHA256=base64", " padded "])
    func encodings(_ form: String) {
        let digest = mac(secret, body)
        let value: String = switch form {
        case "hex": HexBytes.encode(digest)
        case "HEX": HexBytes.encode(digest).uppercased()
        case "base64": Base64Bytes.encode(digest)
        case "base64url": Base64Bytes.encode(digest).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        case "sha256=hex": "sha256=" + HexBytes.encode(digest)
        case "SHA256=base64": "SHA256=" + Base64Bytes.encode(digest)
        default: "  " + HexBytes.encode(digest) + " "
        }
        let verifier = EntrupySignatureVerifier(secrets: [secret])
        #expect(verifier.verify(body: body, headers: ["entrupy-signature": value]) == .verified(.entrupy))
    }

    @Test func acceptsTheXPrefixedHeaderName() {
        let verifier = EntrupySignatureVerifier(secrets: [secret])
        let header = EntrupySignatureVerifier.sign(body: body, secret: secret)
        #expect(verifier.verify(body: body, headers: ["x-entrupy-signature": header]) == .verified(.entrupy))
    }

    @Test func anyRotatedSecretVerifies() {
        let verifier = EntrupySignatureVerifier(secrets: [other, secret])
        #expect(verifier.verify(body: body, headers: ["entrupy-signature": EntrupySignatureVerifier.sign(body: body, secret: secret)]) == .verified(.entrupy))
        #expect(verifier.verify(body: body, headers: ["entrupy-signature": EntrupySignatureVerifier.sign(body: body, secret: other)]) == .verified(.entrupy))
    }

    @Test func tamperedBodyIsRefused() {
        let verifier = EntrupySignatureVerifier(secrets: [secret])
        var tampered = body
        tampered[tampered.count - 3] ^= 0x01
        let outcome = verifier.verify(body: tampered, headers: ["entrupy-signature": EntrupySignatureVerifier.sign(body: body, secret: secret)])
        #expect(outcome == .invalidSignature(reason: "signature matches no configured secret"))
    }

    @Test func wrongSecretIsRefused() {
        let verifier = EntrupySignatureVerifier(secrets: [secret])
        let outcome = verifier.verify(body: body, headers: ["entrupy-signature": EntrupySignatureVerifier.sign(body: body, secret: other)])
        #expect(!(outcome?.isVerified ?? true))
    }

    @Test("malformed signatures are refused, not crashed on", arguments: ["", "sha256=", "zz", String(repeating: "g", count: 64), "abc", Base64Bytes.encode([UInt8](repeating: 1, count: 16))])
    func malformed(_ value: String) {
        let verifier = EntrupySignatureVerifier(secrets: [secret])
        let outcome = verifier.verify(body: body, headers: ["entrupy-signature": value])
        #expect(outcome == .invalidSignature(reason: "signature is neither hex nor base64 of a SHA-256 digest"))
    }

    @Test func noHeaderMeansAnotherSchemeMayApply() {
        #expect(EntrupySignatureVerifier(secrets: [secret]).verify(body: body, headers: [:]) == nil)
        #expect(WebhookVerifier(entrupySecrets: [secret], standardSecrets: []).verify(body: body, headers: [:]) == .missingSignature)
    }
}

@Suite("Standard Webhooks verification")
struct StandardWebhookTests {
    let body = Array(#"{"type":"result.final"}"#.utf8)
    // The example secret of the Standard Webhooks specification.
    let secret = WebhookSecret.standardWebhooks("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func headers(id: String = "msg_1", timestamp: Int64? = nil, signature: String? = nil) -> [String: String] {
        let ts = timestamp ?? Int64(now.timeIntervalSince1970)
        return [
            "webhook-id": id, "webhook-timestamp": String(ts),
            "webhook-signature": signature ?? StandardWebhookVerifier.sign(id: id, timestamp: ts, body: body, secret: secret),
        ]
    }

    @Test func matchesTheSpecificationVector() {
        // Vector from the Standard Webhooks reference tests.
        let payload = Array(#"{"test": 2432232314}"#.utf8)
        let signature = StandardWebhookVerifier.sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: payload, secret: secret)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func validSignatureVerifies() {
        let verifier = StandardWebhookVerifier(secrets: [secret])
        #expect(verifier.verify(body: body, headers: headers(), now: now) == .verified(.standardWebhooks))
    }

    @Test func oneOfSeveralSignaturesIsEnough() {
        let good = StandardWebhookVerifier.sign(id: "msg_1", timestamp: Int64(now.timeIntervalSince1970), body: body, secret: secret)
        let verifier = StandardWebhookVerifier(secrets: [secret])
        #expect(verifier.verify(body: body, headers: headers(signature: "v1,AAAA v2,zzz " + good), now: now) == .verified(.standardWebhooks))
    }

    @Test("stale or future timestamps are refused", arguments: [-301, 301, -100_000])
    func stale(_ offset: Int64) {
        let verifier = StandardWebhookVerifier(secrets: [secret])
        let ts = Int64(now.timeIntervalSince1970) + offset
        #expect(verifier.verify(body: body, headers: headers(timestamp: ts), now: now) == .staleTimestamp)
    }

    @Test func withinToleranceVerifies() {
        let verifier = StandardWebhookVerifier(secrets: [secret])
        let ts = Int64(now.timeIntervalSince1970) - 299
        #expect(verifier.verify(body: body, headers: headers(timestamp: ts), now: now) == .verified(.standardWebhooks))
    }

    @Test func tamperedBodyOrIdIsRefused() {
        let verifier = StandardWebhookVerifier(secrets: [secret])
        let signed = headers()
        var otherID = signed
        otherID["webhook-id"] = "msg_2"
        #expect(!verifier.verify(body: body + [0x20], headers: signed, now: now)!.isVerified)
        #expect(!verifier.verify(body: body, headers: otherID, now: now)!.isVerified)
    }

    @Test func missingPartsAreRefused() {
        let verifier = StandardWebhookVerifier(secrets: [secret])
        var noID = headers()
        noID["webhook-id"] = nil
        var badTimestamp = headers()
        badTimestamp["webhook-timestamp"] = "yesterday"
        #expect(verifier.verify(body: body, headers: noID, now: now) == .invalidSignature(reason: "webhook-id and webhook-timestamp are required"))
        #expect(verifier.verify(body: body, headers: badTimestamp, now: now) == .invalidSignature(reason: "webhook-timestamp is not an integer"))
    }

    @Test func combinedVerifierFallsBackToStandardWebhooks() {
        let verifier = WebhookVerifier(entrupySecrets: [.entrupy("x")], standardSecrets: [secret])
        #expect(verifier.verify(body: body, headers: headers(), now: now) == .verified(.standardWebhooks))
    }

    @Test func secretsMustBeBase64() {
        #expect(WebhookSecret.standardWebhooks("whsec_%%%") == nil)
        #expect(WebhookSecret.standardWebhooks("whsec_") == nil)
        #expect(String(describing: secret).contains("redacted"))
    }
}
