public import RelayModel
import Foundation

/// One recorded attempt at a delivery.
public struct APIDeliveryAttempt: Encodable, Sendable {
    let attempt: Int
    let startedAt: Date
    let durationMilliseconds: Int
    let outcome: String
    @AlwaysPresent var statusCode: Int?
    @AlwaysPresent var smtpReply: String?
    @AlwaysPresent var error: String?
    @AlwaysPresent var responseExcerpt: String?

    enum CodingKeys: String, CodingKey {
        case attempt, startedAt = "started_at", durationMilliseconds = "duration_ms", outcome, statusCode = "status_code"
        case smtpReply = "smtp_reply", error, responseExcerpt = "response_excerpt"
    }

    public init(_ attempt: DeliveryAttempt) {
        self.attempt = attempt.attempt
        startedAt = attempt.startedAt
        durationMilliseconds = attempt.durationMilliseconds
        outcome = attempt.outcome.rawValue
        statusCode = attempt.statusCode
        smtpReply = attempt.smtpReply
        error = attempt.error
        responseExcerpt = attempt.responseExcerpt
    }
}
