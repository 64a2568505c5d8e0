public import RelayModel

/// A test send's answer, as `POST /v1/targets/test` and `targets test --json` show it.
public struct APITargetTest: Encodable, Sendable {
    @AlwaysPresent var rule: String?
    @AlwaysPresent var action: Int?
    let channel: String
    let target: String
    let transition: String
    let webhookID: String
    @AlwaysPresent var status: Int?
    @AlwaysPresent var smtpReply: String?
    let headers: [String: String]
    @AlwaysPresent var excerpt: String?
    @AlwaysPresent var error: String?
    let succeeded: Bool
    let milliseconds: Int

    enum CodingKeys: String, CodingKey {
        case rule, action, channel, target, transition, webhookID = "webhook_id", status, smtpReply = "smtp_reply", headers, excerpt
        case error, succeeded, milliseconds
    }

    public init(_ answer: TargetTestAnswer) {
        rule = answer.rule
        action = answer.action
        channel = answer.channel.rawValue
        target = answer.target
        transition = answer.transition
        webhookID = answer.messageID
        status = answer.statusCode
        smtpReply = answer.smtpReply
        headers = answer.headers
        excerpt = answer.excerpt
        error = answer.error
        succeeded = answer.succeeded
        milliseconds = answer.milliseconds
    }
}
