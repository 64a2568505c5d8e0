import Crypto
public import Foundation

/// `webhooks verify`: which configured secret and scheme a captured delivery verifies with, or
/// why none does, in an operator's words. Beside the relay's own reading it tries the readings
/// Entrupy might use instead (the secret decoded from base64, a timestamped header), so a
/// refusal says what would have matched. Prints fingerprints, never secrets or digests.
public struct SignatureDiagnosis: Sendable {
    public let verifier: WebhookVerifier

    public init(verifier: WebhookVerifier) {
        self.verifier = verifier
    }

    /// The verdict's lines, and whether the relay itself would accept the delivery.
    public func diagnose(body: [UInt8], headers: [String: String], now: Date = Date()) -> (accepted: Bool, lines: [String]) {
        let outcome = verifier.verify(body: body, headers: headers, now: now)
        let shape = SignatureShape.of(headers: headers, outcome: outcome)
        var lines = ["presented: " + (shape.headers.isEmpty ? "no signature header" : shape.headers.joined(separator: ", "))
            + (shape.encoding == "none" ? "" : "; the signature is \(shape.encoding), \(shape.length) characters") + "; body \(body.count) bytes"]
        if case .verified(let scheme) = outcome {
            lines.append("accepted: \(scheme == .entrupy ? "Entrupy-Signature" : "Standard Webhooks") with \(matchingSecret(body: body, headers: headers, scheme: scheme))")
            return (true, lines)
        }
        lines.append("refused (\(outcome.label)): " + Self.reason(outcome))
        lines += alternatives(body: body, headers: headers)
        return (false, lines)
    }

    static func reason(_ outcome: VerificationOutcome) -> String {
        switch outcome {
        case .verified: "verified"
        case .missingSignature: "no Entrupy-Signature, X-Entrupy-Signature or webhook-signature header"
        case .invalidSignature(let reason): reason
        case .staleTimestamp: "webhook-timestamp is outside the tolerance (replay protection): was the capture old?"
        }
    }

    /// Which secret matched, by fingerprint and position.
    private func matchingSecret(body: [UInt8], headers: [String: String], scheme: SignatureScheme) -> String {
        let secrets = scheme == .entrupy ? verifier.entrupy.secrets : verifier.standard.secrets
        for (index, secret) in secrets.enumerated() {
            let alone = WebhookVerifier(entrupySecrets: scheme == .entrupy ? [secret] : [], standardSecrets: scheme == .entrupy ? [] : [secret],
                                        tolerance: verifier.standard.tolerance)
            if alone.verify(body: body, headers: headers).isVerified {
                return "secret \(index + 1) of \(secrets.count) (\(secret.fingerprint))"
            }
        }
        return "a configured secret"
    }

    /// Readings the relay does not use, each said when it would have matched.
    private func alternatives(body: [UInt8], headers: [String: String]) -> [String] {
        var lines: [String] = []
        guard let raw = EntrupySignatureVerifier.headerNames.lazy.compactMap({ headers[$0] }).first else { return lines }
        if SignatureShape.encoding(of: raw) == "timestamped" {
            lines.append("the header is timestamped (t=…,v1=…): the relay reads a plain HMAC of the body; Entrupy may sign another way than assumed")
        }
        guard let mac = EntrupySignatureVerifier.decodeDigest(raw) else { return lines }
        for (index, secret) in verifier.entrupy.secrets.enumerated() {
            let text = String(decoding: secret.keyBytes, as: UTF8.self)
            let decoded = Base64Bytes.decode(Substring(text.hasPrefix("whsec_") ? String(text.dropFirst(6)) : text))
            if let decoded, !decoded.isEmpty,
               HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: SymmetricKey(data: decoded)) {
                lines.append("would match secret \(index + 1) (\(secret.fingerprint)) decoded from base64 first: Entrupy uses the secret's bytes, not its text")
            }
            var trimmed = body
            while let last = trimmed.last, last == 10 || last == 13 { trimmed.removeLast() }
            if trimmed.count != body.count, HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: trimmed, using: secret.key) {
                lines.append("would match secret \(index + 1) (\(secret.fingerprint)) without the body's trailing newline: the capture added one")
            }
        }
        if lines.isEmpty {
            let prints = verifier.entrupy.secrets.map(\.fingerprint).joined(separator: ", ")
            lines.append("no reading matches the Entrupy secrets configured (\(prints.isEmpty ? "none" : prints)): is the subscription's secret one of them?")
        }
        return lines
    }
}
