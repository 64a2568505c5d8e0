public import Foundation

/// Tries every supported scheme. A request carrying an Entrupy signature is judged by it;
/// one carrying only a Standard Webhooks signature is judged by that; one with neither is refused.
/// When both headers are present, either one verifying is enough.
public struct WebhookVerifier: Sendable {
    public let entrupy: EntrupySignatureVerifier
    public let standard: StandardWebhookVerifier

    public init(entrupySecrets: [WebhookSecret], standardSecrets: [WebhookSecret], tolerance: TimeInterval = 300) {
        self.entrupy = EntrupySignatureVerifier(secrets: entrupySecrets)
        self.standard = StandardWebhookVerifier(secrets: standardSecrets, tolerance: tolerance)
    }

    public func verify(body: [UInt8], headers: [String: String], now: Date = Date()) -> VerificationOutcome {
        let first = entrupy.verify(body: body, headers: headers)
        if let first, first.isVerified { return first }
        let second = standard.verify(body: body, headers: headers, now: now)
        if let second, second.isVerified { return second }
        return first ?? second ?? .missingSignature
    }
}
