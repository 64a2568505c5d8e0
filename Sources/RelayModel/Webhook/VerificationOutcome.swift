/// The answer of a webhook verifier. Only `.verified` lets a request be stored.
public enum VerificationOutcome: Sendable, Equatable {
    case verified(SignatureScheme)
    /// No signature header of any supported scheme was present.
    case missingSignature
    /// A signature was present but matched no configured secret, or was malformed.
    case invalidSignature(reason: String)
    /// A Standard Webhooks timestamp outside the tolerance window (replay protection).
    case staleTimestamp

    public var isVerified: Bool {
        if case .verified = self { return true }
        return false
    }

    /// A short label for metrics and logs; never contains secret material.
    public var label: String {
        switch self {
        case .verified: "verified"
        case .missingSignature: "missing_signature"
        case .invalidSignature: "invalid_signature"
        case .staleTimestamp: "stale_timestamp"
        }
    }
}
