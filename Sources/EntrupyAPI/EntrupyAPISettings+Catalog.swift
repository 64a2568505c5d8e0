public import RelayCore

/// The settings `EntrupyAPISettings` reads, as the reference gives them.
extension EntrupyAPISettings {
    public static let url = TextSetting("entrupy_api_url", takes: "an http(s) URL", default: "https://api.entrupy.com", "Entrupy's REST API")
    public static let token = TextSetting("entrupy_api_token", takes: "text", defaultText: "required for `serve` (unless `--no-worker`), `worker`, `backfill`",
        secret: true, "the organisation's API token, sent as `Authorization: Token …`")
    public static let rate = IntegerSetting("entrupy_api_rate", default: 10, range: 1...10_000,
        "the organisation's limit: API requests in any one second by all replicas together; webhook reconciles go first, then people, then background work")
    public static let timeout = IntegerSetting("entrupy_api_timeout_seconds", default: 10, range: 1...300, "per API request")
    public static let healthInterval = IntegerSetting("entrupy_health_interval_seconds", default: 30, range: 1...3_600,
        "how often `GET /v1/health` checks that Entrupy answers and accepts the token (`/readyz`, `relay_entrupy_up`)")

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [url.setting, token.setting, rate.setting, timeout.setting, healthInterval.setting]
}
