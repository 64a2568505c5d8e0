public import RelayModel

/// How one attempt at a delivery went, before it is recorded.
public struct AttemptReport: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        case delivered
        /// Worth trying again (timeouts, 5xx, 4xx SMTP replies, connection failures).
        case transient
        /// Never worth trying again (410, 5xx SMTP replies, refused addresses).
        case permanent
    }

    public var result: Result
    public var statusCode: Int?
    public var smtpReply: String?
    public var error: String?
    public var excerpt: String?
    /// The target asked for this wait (429/503 Retry-After).
    public var retryAfter: Duration?
    /// When it failed: whether the target's breaker counts it (`.target`) or it fails this
    /// delivery alone (`.delivery`). Unless given: transient failures are the target's,
    /// permanent ones the delivery's.
    public var cause: FailureCause

    public init(result: Result, statusCode: Int? = nil, smtpReply: String? = nil, error: String? = nil,
                excerpt: String? = nil, retryAfter: Duration? = nil, cause: FailureCause? = nil) {
        self.cause = cause ?? (result == .permanent ? .delivery : .target)
        self.result = result
        self.statusCode = statusCode
        self.smtpReply = smtpReply
        self.error = error
        self.excerpt = excerpt
        self.retryAfter = retryAfter
    }
}
