import Metrics
import RelayModel
import RelayRuntime

/// How a webhook request ended, as counted in `relay_webhook_requests_total{outcome}`.
public enum WebhookOutcome: String, CaseIterable, Sendable {
    case accepted, duplicate, unauthorized, tooLarge = "too_large", unavailable
    /// The body did not arrive within ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS (a drip): 408.
    case bodyTimeout = "body_timeout"
    /// ENTRUPY_RELAY_WEBHOOK_MAX_CONCURRENT_BODIES were already being read: 503.
    case busy

    /// One pre-made counter per outcome, so the hot path does no label lookups.
    struct Counters: Sendable {
        let counters: [WebhookOutcome: Counter]
        let durations: [WebhookOutcome: Metrics.Timer]
        let bodyBytes = MetricHandles.recorder(.webhookBodyBytes)
        /// Events stored apart though an earlier one of the item had their body `id`.
        let reusedEventIDs = MetricHandles.counter(.webhookReusedIDs)

        init() {
            var counters: [WebhookOutcome: Counter] = [:]
            var durations: [WebhookOutcome: Metrics.Timer] = [:]
            for outcome in WebhookOutcome.allCases {
                counters[outcome] = MetricHandles.counter(.webhookRequests, [("outcome", outcome.rawValue)])
                durations[outcome] = MetricHandles.timer(.webhookIngestDuration, [("outcome", outcome.rawValue)])
            }
            self.counters = counters
            self.durations = durations
        }

        func record(_ outcome: WebhookOutcome, since start: ContinuousClock.Instant) {
            counters[outcome]?.increment()
            durations[outcome]?.record(duration: ContinuousClock.now - start)
        }
    }
}
