/// Counters exposed at `GET /_sim/stats`.
public struct SimulatorStats: Sendable, Equatable, Codable {
    public var requests = 0
    public var rateLimited = 0
    public var errorsInjected = 0
    public var webhooksSent = 0
    public var webhookAttempts = 0
    public var webhooksFailed = 0
    public var items = 0

    enum CodingKeys: String, CodingKey {
        case requests, items
        case rateLimited = "rate_limited"
        case errorsInjected = "errors_injected"
        case webhooksSent = "webhooks_sent"
        case webhookAttempts = "webhook_attempts"
        case webhooksFailed = "webhooks_failed"
    }

    public init() {}
}
