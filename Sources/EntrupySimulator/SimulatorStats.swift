/// Counters exposed at `GET /_sim/stats`.
public struct SimulatorStats: Sendable, Equatable, Codable {
    /// API requests seen (any answer), not counting `/_sim` routes.
    public var requests = 0
    public var rateLimited = 0
    /// Answered 500 by `error_rate`.
    public var errorsInjected = 0
    /// Webhook copies that got a 2xx.
    public var webhooksSent = 0
    public var webhookAttempts = 0
    /// Webhook copies that never got a 2xx within the retry schedule.
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

    var json: SimJSON {
        .object([
            "requests": .number(requests), "items": .number(items), "rate_limited": .number(rateLimited),
            "errors_injected": .number(errorsInjected),
            "webhooks_sent": .number(webhooksSent), "webhook_attempts": .number(webhookAttempts),
            "webhooks_failed": .number(webhooksFailed),
        ])
    }
}
