/// What a rule does when it matches: each action becomes one delivery.
public enum RuleAction: Sendable {
    case email(EmailAction)
    case webhook(WebhookAction)

    public var channelName: String {
        switch self {
        case .email: "email"
        case .webhook: "webhook"
        }
    }
}
