public import RelayModel
public import RelayRuntime

/// The settings `HTTPSettings` reads, as the reference gives them.
extension HTTPSettings {
    public static let host = TextSetting("host", takes: "an address", default: "127.0.0.1", "listen address (`serve --host` overrides)",
        audience: .operator(why: "when the proxy is on another host or the relay runs in a container"))
    public static let port = IntegerSetting("port", default: 8080, range: 0...65_535, "listen port (`serve --port` overrides)",
        audience: .operator(why: "when something else holds 8080"))
    public static let metricsPort = IntegerSetting("metrics_port", default: 0, range: 0...65_535, defaultText: "none",
        "serve `/metrics` (with `/healthz`, `/readyz`) on this port instead of the main one, which the proxy exposes",
        audience: .operator(why: "to keep `/metrics` and the detailed `/readyz` off the port the internet reaches"))
    public static let metricsHost = TextSetting("metrics_host", takes: "an address", default: "127.0.0.1", "the address of `metrics_port`")
    public static let idleTimeout = IntegerSetting("http_idle_timeout_seconds", default: 30, range: 1...3_600,
        "a connection that sends nothing for this long is closed, on every port")
    public static let maxConnections = IntegerSetting("http_max_connections", default: 1_024, range: 1...1_000_000,
        "open connections per server; over it new ones wait in the listen backlog")
    public static let trustedProxies = TextSetting("trusted_proxies", takes: "addresses or CIDR blocks, comma-separated", default: defaultTrustedProxies,
        "proxies whose `X-Forwarded-For` is believed (the rightmost untrusted hop is the client)",
        audience: .operator(why: "when the proxy is not on this host: else every client is the proxy and https is not seen"))
    public static let apiTokenConcurrency = IntegerSetting("api_token_concurrency", default: 8, range: 1...10_000,
        "requests one API token may have under way at once; one more gets 429 with `Retry-After: 1`")
    public static let authFailureLimit = IntegerSetting("auth_failure_limit", default: 10, range: 1...100_000,
        "wrong bearer tokens (or console sign-ins) allowed per client address per window before 429")
    public static let authFailureWindow = IntegerSetting("auth_failure_window_seconds", default: 300, range: 1...86_400,
        "the window of `auth_failure_limit`")
    public static let consoleSessionHours = IntegerSetting("console_session_hours", default: 12, range: 1...720, "console session lifetime")
    public static let exportConcurrency = IntegerSetting("export_concurrency", default: 4, range: 1...1_000,
        "CSV exports streaming at once in one process; more get 503 with `Retry-After`")
    public static let sdkAuthorizePerMinute = IntegerSetting("sdk_authorize_per_minute", default: 60, range: 1...100_000,
        "`POST /v1/sdk/authorize` calls one token may make a minute, across every replica")
    public static let consoleImageSources = TextSetting("console_image_sources", takes: "`none` or https origins, comma-separated",
        default: ConsoleController.defaultImageSources.joined(separator: ","),
        "where the console may show item photos from (its `img-src` policy); `https://*.host` allowed, and `http://127.0.0.1:port` for a local simulator")
    public static let publicURL = TextSetting("public_url", takes: "an http(s) URL", "where people reach the relay, e.g. `https://relay.example.com`; "
        + "over https every answer carries `Strict-Transport-Security` and console cookies are always `Secure`",
        audience: .operator(why: "once people reach the relay over https"))

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [
        host.setting, port.setting, metricsPort.setting, metricsHost.setting, publicURL.setting, trustedProxies.setting,
        idleTimeout.setting, maxConnections.setting, apiTokenConcurrency.setting, authFailureLimit.setting,
        authFailureWindow.setting, exportConcurrency.setting, sdkAuthorizePerMinute.setting, consoleSessionHours.setting,
        consoleImageSources.setting,
    ]
}
