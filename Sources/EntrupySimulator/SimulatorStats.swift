/// Counters exposed at `GET /_sim/stats`.
public struct SimulatorStats: Sendable, Equatable, Codable {
    /// API requests seen (any answer), not counting `/_sim` routes.
    public var requests = 0
    public var rateLimited = 0
    /// Answered 500 by `error_rate`.
    public var errorsInjected = 0
    /// Answered 503 by `api_error_rate`.
    public var apiErrors503 = 0
    /// The most API requests seen within any one second.
    public var peakAPIRate = 0
    /// API requests by `METHOD /route/:parameter`.
    public var apiRequestsByRoute: [String: Int] = [:]
    /// Webhook copies that got a 2xx.
    public var webhooksSent = 0
    public var webhookAttempts = 0
    /// Webhook copies that never got a 2xx within the retry schedule.
    public var webhooksFailed = 0
    /// Events never sent (`webhook_drop_rate`).
    public var webhooksDropped = 0
    /// Extra copies queued (`webhook_duplicate_rate` and `duplicate_webhooks`).
    public var webhooksDuplicated = 0
    public var items = 0

    enum CodingKeys: String, CodingKey {
        case requests, items
        case rateLimited = "rate_limited"
        case errorsInjected = "errors_injected"
        case apiErrors503 = "api_errors_503"
        case peakAPIRate = "peak_api_rate"
        case apiRequestsByRoute = "api_requests_by_route"
        case webhooksSent = "webhooks_sent"
        case webhookAttempts = "webhook_attempts"
        case webhooksFailed = "webhooks_failed"
        case webhooksDropped = "webhooks_dropped"
        case webhooksDuplicated = "webhooks_duplicated"
    }

    public init() {}

    var json: SimJSON {
        .object([
            "requests": .number(requests), "items": .number(items), "rate_limited": .number(rateLimited),
            "errors_injected": .number(errorsInjected), "api_errors_503": .number(apiErrors503),
            "peak_api_rate": .number(peakAPIRate),
            "api_requests_by_route": .object(apiRequestsByRoute.mapValues(SimJSON.number)),
            "webhooks_sent": .number(webhooksSent), "webhook_attempts": .number(webhookAttempts),
            "webhooks_failed": .number(webhooksFailed), "webhooks_dropped": .number(webhooksDropped),
            "webhooks_duplicated": .number(webhooksDuplicated),
        ])
    }
}
