/// How a notification travels.
public enum DeliveryChannel: String, Sendable, CaseIterable {
    case email
    case webhook
}
