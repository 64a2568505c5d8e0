/// A validated `POST /_sim/config` body. Every key is checked before any is applied, so a bad
/// value changes nothing.
struct ConfigChange: Sendable {
    var behaviour: SimulatorBehaviour
    /// A new seed restarts the random generator.
    var seed: UInt64?

    static let keys: Set<String> = [
        "rate_limit_per_second", "error_rate", "api_error_rate", "latency_ms", "api_latency_ms", "duplicate_webhooks",
        "webhook_drop_rate", "webhook_duplicate_rate", "webhook_reorder_ms", "webhook_retry_schedule_ms",
        "visibility_delay_ms", "variant_mix", "authorize_conflict_username", "lookup_answers_list", "search_cursor_string", "search_requires_category", "search_answers_nothing", "seed",
        "api_version", "v1_retired_status",
    ]

    /// Reads the body on top of `current`, the behaviour in force now.
    static func parse(_ body: SimJSON, current: SimulatorBehaviour) throws(SimInputError) -> ConfigChange {
        let fields = try InputFields(body)
        try fields.requireOnly(keys)
        var next = current
        if let rate = try fields.number("rate_limit_per_second", in: 0...1_000_000) { next.rateLimitPerSecond = rate }
        if let rate = try fields.rate("error_rate") { next.errorRate = rate }
        if let rate = try fields.rate("api_error_rate") { next.apiErrorRate = rate }
        let latency = try fields.integer("latency_ms", in: 0...60_000)
        let apiLatency = try fields.integer("api_latency_ms", in: 0...60_000)
        if let latency, let apiLatency, latency != apiLatency {
            throw SimInputError("latency_ms and api_latency_ms are the same setting; give one, or both equal")
        }
        if let milliseconds = latency ?? apiLatency { next.latencyMilliseconds = Int(milliseconds) }
        if let copies = fields.value("duplicate_webhooks") {
            // Older callers send a boolean (true = one extra copy) or a count.
            if let flag = copies.boolValue {
                next.duplicateWebhooks = flag ? 1 : 0
            } else if let count = try fields.integer("duplicate_webhooks", in: 0...10) {
                next.duplicateWebhooks = Int(count)
            }
        }
        if let rate = try fields.rate("webhook_drop_rate") { next.webhookDropRate = rate }
        if let rate = try fields.rate("webhook_duplicate_rate") { next.webhookDuplicateRate = rate }
        if let hold = try fields.integer("webhook_reorder_ms", in: 0...60_000) { next.webhookReorderMilliseconds = Int(hold) }
        if let delay = try fields.integer("visibility_delay_ms", in: 0...600_000) { next.visibilityDelayMilliseconds = Int(delay) }
        if let mix = try fields.bool("variant_mix") { next.variantMix = mix }
        if let named = try fields.bool("authorize_conflict_username") { next.authorizeConflictUsername = named }
        if let list = try fields.bool("lookup_answers_list") { next.lookupAnswersList = list }
        if let string = try fields.bool("search_cursor_string") { next.searchCursorAsString = string }
        if let required = try fields.bool("search_requires_category") { next.searchRequiresCategory = required }
        if let nothing = try fields.bool("search_answers_nothing") { next.searchAnswersNothing = nothing }
        // A string as documented; a bare number (2, 1.4) is read as its text, as callers write versions both ways.
        if let text = try fields.text("api_version", maxLength: 16) {
            guard let version = SimulatorAPIVersion(rawValue: text) else {
                throw SimInputError("api_version must be \(SimulatorAPIVersion.described)")
            }
            next.apiVersion = version
        }
        if fields.has("v1_retired_status") {
            guard let status = fields.value("v1_retired_status")?.integerValue, status == 404 || status == 410 else {
                throw SimInputError("v1_retired_status must be 410 or 404")
            }
            next.v1RetiredStatus = Int(status)
        }
        if let schedule = try fields.array("webhook_retry_schedule_ms", maxCount: 20) {
            next.webhookRetryScheduleMilliseconds = try schedule.enumerated().map { index, element throws(SimInputError) in
                guard let delay = element.integerValue, (0...600_000).contains(delay) else {
                    throw SimInputError("webhook_retry_schedule_ms[\(index)] must be an integer from 0 to 600000")
                }
                return Int(delay)
            }
        }
        var seed: UInt64?
        if let value = fields.value("seed") {
            guard let number = value.integerValue else { throw SimInputError("seed must be an integer") }
            seed = UInt64(bitPattern: number)
        }
        return ConfigChange(behaviour: next, seed: seed)
    }
}
