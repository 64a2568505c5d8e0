/// Knobs set through `POST /_sim/config` to make the simulator misbehave like the real world
/// can. Every fault is off by default; the defaults are the plain, well-behaved Entrupy the
/// existing tests were written against.
public struct SimulatorBehaviour: Sendable, Equatable {
    /// API requests per second per token; 0 turns the limit off.
    public var rateLimitPerSecond: Double = 10
    /// Fraction (0...1) of API requests answered 500.
    public var errorRate: Double = 0
    /// Fraction (0...1) of API requests answered 503 with `Retry-After: 1`.
    public var apiErrorRate: Double = 0
    /// Delay added before every API answer (`latency_ms`, also `api_latency_ms`).
    public var latencyMilliseconds: Int = 0
    /// Extra copies of every webhook sent (0 = each once).
    public var duplicateWebhooks: Int = 0
    /// Fraction (0...1) of webhook events never sent.
    public var webhookDropRate: Double = 0
    /// Fraction (0...1) of webhook events sent twice, with the same body.
    public var webhookDuplicateRate: Double = 0
    /// Each webhook copy waits a random 0...N ms before its first attempt, so events shuffle.
    public var webhookReorderMilliseconds: Int = 0
    /// Delays between attempts of one webhook; attempts = delays + 1.
    public var webhookRetryScheduleMilliseconds: [Int] = Self.defaultRetrySchedule
    /// For this long after creation an item is not found by lookup, get or search.
    public var visibilityDelayMilliseconds: Int = 0
    /// New items take a random variant (flag style, `final` omitted) unless the caller chose.
    public var variantMix: Bool = false

    /// 100, 200, 400 … ms: eight attempts over about 13 s.
    /// Whether a 409 from authorize-user names the username, as a 200 does (Entrupy documents
    /// the signed request in a 409, not the username).
    public var authorizeConflictUsername: Bool = true

    /// Whether the lookup answers `{"items": [...]}`, every visible authentication of the
    /// customer item ID oldest first, instead of `{"item": latest}`.
    public var lookupAnswersList: Bool = false

    /// Whether search's `next_cursor` is one string (as v2 documents it) instead of a pair.
    public var searchCursorAsString: Bool = false

    /// Whether a search without a category filter answers nothing.
    public var searchRequiresCategory: Bool = false

    /// Whether every search answers no items.
    public var searchAnswersNothing: Bool = false

    /// Which API versions are served (`api_version`): both (the default, today's simulator with
    /// v2 beside it), v2 only (v1 retired) or v1.4 only (no v2).
    public var apiVersion: SimulatorAPIVersion = .both

    /// What a retired v1 route answers once `api_version` is `2`: 410 Gone, or 404 for a
    /// service that simply dropped the routes (`v1_retired_status`, 410 or 404).
    public var v1RetiredStatus: Int = 410

    public static let defaultRetrySchedule = [100, 200, 400, 800, 1600, 3200, 6400]

    public init() {}

    /// The `POST /_sim/config` answer's keys (the seed is added by the store, which owns it).
    var json: [String: SimJSON] {
        [
            "rate_limit_per_second": .number(rateLimitPerSecond),
            "error_rate": .number(errorRate),
            "api_error_rate": .number(apiErrorRate),
            "latency_ms": .number(latencyMilliseconds),
            "api_latency_ms": .number(latencyMilliseconds),
            "duplicate_webhooks": .number(duplicateWebhooks),
            "webhook_drop_rate": .number(webhookDropRate),
            "webhook_duplicate_rate": .number(webhookDuplicateRate),
            "webhook_reorder_ms": .number(webhookReorderMilliseconds),
            "webhook_retry_schedule_ms": .array(webhookRetryScheduleMilliseconds.map(SimJSON.number)),
            "visibility_delay_ms": .number(visibilityDelayMilliseconds),
            "variant_mix": .bool(variantMix),
            "authorize_conflict_username": .bool(authorizeConflictUsername),
            "lookup_answers_list": .bool(lookupAnswersList),
            "search_cursor_string": .bool(searchCursorAsString),
            "search_requires_category": .bool(searchRequiresCategory),
            "search_answers_nothing": .bool(searchAnswersNothing),
            "api_version": .string(apiVersion.rawValue),
            "v1_retired_status": .number(v1RetiredStatus),
        ]
    }
}
