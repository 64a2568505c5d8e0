/// Knobs set through `POST /_sim/config` to make the simulator misbehave like the real thing can.
public struct SimulatorBehaviour: Sendable, Equatable {
    /// API requests per second per token; 0 turns the limit off.
    public var rateLimitPerSecond: Double = 10
    /// Fraction (0...1) of API requests answered 500.
    public var errorRate: Double = 0
    /// Delay added before every API answer.
    public var latencyMilliseconds: Int = 0
    /// Extra copies of every webhook sent (0 = each once).
    public var duplicateWebhooks: Int = 0

    public init() {}

    /// The `POST /_sim/config` answer.
    var json: [String: SimJSON] {
        [
            "rate_limit_per_second": .number(rateLimitPerSecond),
            "error_rate": .number(errorRate),
            "latency_ms": .number(latencyMilliseconds),
            "duplicate_webhooks": .number(duplicateWebhooks),
        ]
    }
}
