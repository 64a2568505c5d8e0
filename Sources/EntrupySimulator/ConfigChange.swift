/// A validated `POST /_sim/config` body. Every key is checked before any is applied, so a bad
/// value changes nothing.
struct ConfigChange: Sendable {
    var behaviour: SimulatorBehaviour

    static let keys: Set<String> = ["rate_limit_per_second", "error_rate", "latency_ms", "duplicate_webhooks"]

    /// Reads the body on top of `current`, the behaviour in force now.
    static func parse(_ body: SimJSON, current: SimulatorBehaviour) throws(SimInputError) -> ConfigChange {
        let fields = try InputFields(body)
        try fields.requireOnly(keys)
        var next = current
        if let rate = try fields.number("rate_limit_per_second", in: 0...1_000_000) { next.rateLimitPerSecond = rate }
        if let rate = try fields.rate("error_rate") { next.errorRate = rate }
        if let milliseconds = try fields.integer("latency_ms", in: 0...60_000) { next.latencyMilliseconds = Int(milliseconds) }
        if let copies = fields.value("duplicate_webhooks") {
            // Older callers send a boolean (true = one extra copy) or a count.
            if let flag = copies.boolValue {
                next.duplicateWebhooks = flag ? 1 : 0
            } else if let count = try fields.integer("duplicate_webhooks", in: 0...10) {
                next.duplicateWebhooks = Int(count)
            }
        }
        return ConfigChange(behaviour: next)
    }
}
