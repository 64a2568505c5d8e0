public import Foundation

/// One attempt at a delivery, as recorded.
public struct DeliveryAttempt: Sendable, Equatable {
    public var attempt: Int
    public var startedAt: Date
    public var durationMilliseconds: Int
    /// The delivery's state after this attempt: `delivered`, `failed` (will retry) or `dead`.
    public var outcome: DeliveryState
    public var statusCode: Int?
    public var smtpReply: String?
    public var error: String?
    public var responseExcerpt: String?
    public var worker: String?

    public init(attempt: Int, startedAt: Date, durationMilliseconds: Int, outcome: DeliveryState, statusCode: Int? = nil,
                smtpReply: String? = nil, error: String? = nil, responseExcerpt: String? = nil, worker: String? = nil) {
        self.attempt = attempt
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.outcome = outcome
        self.statusCode = statusCode
        self.smtpReply = smtpReply
        self.error = error
        self.responseExcerpt = responseExcerpt
        self.worker = worker
    }
}
