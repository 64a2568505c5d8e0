/// How a notification travels.
public enum DeliveryChannel: String, Sendable, Codable, CaseIterable {
    case email
    case webhook
}
