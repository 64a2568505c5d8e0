/// What a target answered to a test send (`targets test`, `POST /v1/targets/test`, the console's
/// "Send test"): never recorded as a delivery. A callback's status, the response headers that
/// say something to the operator and the first bytes of its body; or the SMTP server's reply;
/// or why nothing could be sent.
public struct TargetTestAnswer: Sendable, Equatable {
    /// The rule and action tried; nil for a bare URL (`targets test URL`).
    public var rule: String?
    public var action: Int?
    public var channel: DeliveryChannel
    /// As deliveries show it: a callback's URL masked, an email's recipients.
    public var target: String
    /// The sample transition the body was rendered for.
    public var transition: String
    /// The `webhook-id` (or the email's Message-ID local part) sent, `test_…`.
    public var messageID: String
    public var statusCode: Int?
    public var smtpReply: String?
    /// The response headers worth showing (`TargetTestAnswer.shownHeaders`), in that order.
    public var headers: [String: String]
    public var excerpt: String?
    /// Why no answer, or why the answer is a failure (a refused address, a timeout, a 500).
    public var error: String?
    /// A 2xx answer, or the SMTP server accepting the message.
    public var succeeded: Bool
    public var milliseconds: Int

    /// The response headers a test shows, lowercased: what the body is, when to come back, why
    /// it was refused. Not `Location`: a redirect's target may carry a secret.
    public static let shownHeaders = ["content-type", "retry-after", "www-authenticate"]

    public init(rule: String?, action: Int?, channel: DeliveryChannel, target: String, transition: String, messageID: String,
                statusCode: Int? = nil, smtpReply: String? = nil, headers: [String: String] = [:], excerpt: String? = nil,
                error: String? = nil, succeeded: Bool, milliseconds: Int) {
        self.rule = rule
        self.action = action
        self.channel = channel
        self.target = target
        self.transition = transition
        self.messageID = messageID
        self.statusCode = statusCode
        self.smtpReply = smtpReply
        self.headers = headers
        self.excerpt = excerpt
        self.error = error
        self.succeeded = succeeded
        self.milliseconds = milliseconds
    }
}
