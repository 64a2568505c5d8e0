import Foundation
import Testing
@testable import RelayModel

/// Issue 30: a refused webhook is described by its shape, and `webhooks verify` says which
/// secret a capture matches, or what would have.
@Suite("Signature shapes and diagnosis")
struct SignatureDiagnosisTests {
    let body = Array(#"{"event":"session.completed","entrupy_id":"E1"}"#.utf8)
    let first = WebhookSecret.entrupy("first-secret-0123456789")
    let second = WebhookSecret.entrupy("second-secret-0123456789")

    @Test("encodings are named, values never kept", arguments: [
        ("sha256=" + String(repeating: "ab", count: 32), "sha256=hex", 71),
        (String(repeating: "AB", count: 32), "hex", 64),
        ("q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=", "base64", 44),
        ("sha256=q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=", "sha256=base64", 51),
        ("t=1700000000,v1=abcdef", "timestamped", 22),
        ("v1,q83vEjRWeJq80=", "v1,base64", 17),
        ("not a signature!", "other", 16),
    ])
    func shapes(_ value: String, _ encoding: String, _ length: Int) {
        let shape = SignatureShape.of(headers: ["entrupy-signature": value], outcome: .invalidSignature(reason: "x"))
        #expect(shape == SignatureShape(headers: ["entrupy-signature"], encoding: encoding, length: length, reason: "invalid_signature"))
        #expect(shape.signatureHeader == "entrupy-signature")
    }

    @Test func noSignatureHeaderIsAShapeToo() {
        let shape = SignatureShape.of(headers: ["webhook-id": "m1"], outcome: .missingSignature)
        #expect(shape == SignatureShape(headers: ["webhook-id"], encoding: "none", length: 0, reason: "missing_signature"))
        #expect(shape.signatureHeader == "none")
    }

    func diagnose(_ headers: [String: String], secrets: [WebhookSecret]? = nil, body: [UInt8]? = nil) -> (accepted: Bool, lines: [String]) {
        SignatureDiagnosis(verifier: WebhookVerifier(entrupySecrets: secrets ?? [first, second], standardSecrets: []))
            .diagnose(body: body ?? self.body, headers: headers)
    }

    @Test func aMatchNamesTheSecretByPositionAndFingerprint() {
        let signed = EntrupySignatureVerifier.sign(body: body, secret: second)
        let verdict = diagnose(["entrupy-signature": "sha256=" + signed])
        #expect(verdict.accepted)
        #expect(verdict.lines == [
            "presented: entrupy-signature; the signature is sha256=hex, 71 characters; body \(body.count) bytes",
            "accepted: Entrupy-Signature with secret 2 of 2 (\(second.fingerprint))",
        ])
        #expect(!verdict.lines.joined().contains(signed) && !verdict.lines.joined().contains("second-secret"))
    }

    @Test func aRefusalSaysWhatWouldHaveMatched() {
        // Entrupy keyed with the secret's base64-decoded bytes.
        let text = Data("raw-key-bytes-0123456789".utf8).base64EncodedString()
        let decodedKey = WebhookSecret(keyBytes: Array("raw-key-bytes-0123456789".utf8))
        let byBytes = diagnose(["entrupy-signature": EntrupySignatureVerifier.sign(body: body, secret: decodedKey)], secrets: [.entrupy(text)])
        #expect(!byBytes.accepted)
        #expect(byBytes.lines.contains { $0.hasPrefix("would match secret 1 (") && $0.hasSuffix("decoded from base64 first: Entrupy uses the secret's bytes, not its text") })
        // The capture gained a trailing newline.
        let withNewline = body + [10]
        let trailing = diagnose(["entrupy-signature": EntrupySignatureVerifier.sign(body: body, secret: first)], body: withNewline)
        #expect(trailing.lines.contains { $0.contains("without the body's trailing newline") })
        // A timestamped header the relay does not read.
        let stamped = diagnose(["entrupy-signature": "t=1700000000,v1=" + String(repeating: "0", count: 64)])
        #expect(stamped.lines.contains { $0.hasPrefix("the header is timestamped") })
        // Nothing matches: the fingerprints to compare with what Entrupy holds.
        let none = diagnose(["entrupy-signature": String(repeating: "0", count: 64)])
        #expect(none.lines.last == "no reading matches the Entrupy secrets configured (\(first.fingerprint), \(second.fingerprint)): is the subscription's secret one of them?")
        #expect(diagnose([:]).lines == ["presented: no signature header; body \(body.count) bytes",
                                        "refused (missing_signature): no Entrupy-Signature, X-Entrupy-Signature or webhook-signature header"])
    }
}
