public import RelayModel
public import RelayRuntime

/// The settings `EntrupyAPISettings` reads, as the reference gives them.
extension EntrupyAPISettings {
    public static let url = TextSetting("entrupy_api_url", takes: "an http(s) URL", default: "https://api.entrupy.com", "Entrupy's REST API",
        audience: .operator(why: "to talk to a sandbox or the project's simulator instead of production"))
    public static let token = TextSetting("entrupy_api_token", takes: "text", defaultText: "required for `serve` (unless `--no-worker`), `worker`, `backfill`",
        secret: true, "the organisation's API token, sent as `Authorization: Token …`",
        audience: .operator(why: "every installation that reconciles items: your organisation's token"))
    public static let version = TextSetting("entrupy_api_version", takes: "`2` or `1.4`", default: "2",
        "the Entrupy API version spoken: `2`, as Entrupy advises new integrations, or `1.4`; each has its own routes (`entrupy_api_*_path`)",
        audience: .operator(why: "to speak 1.4 while your organisation is not on v2"))
    public static let versionHeader = TextSetting("entrupy_api_version_header", takes: "text, or `none`", defaultText: "`1.4` with version 1.4, none with 2",
        "the `Api-Version` header sent on the item, search and health routes")
    public static let itemPath = TextSetting("entrupy_api_item_path", takes: "a path with `{id}`", defaultText: "`/v2/authentications/{id}` (v1.4: `/v1/…`)",
        "the route of an authentication by Entrupy ID; v2's paths are our assumption (docs/entrupy.md)")
    public static let lookupPath = TextSetting("entrupy_api_lookup_path", takes: "a path with `{customer_item_id}`",
        defaultText: "`/v2/lookup/authentications/{customer_item_id}` (v1.4: `/v1/…`)", "the route of the latest authentication for a customer item ID")
    public static let searchPath = TextSetting("entrupy_api_search_path", takes: "a path", defaultText: "`/v2/search/authentications` (v1.4: `/v1/…`)",
        "the search route")
    public static let healthPath = TextSetting("entrupy_api_health_path", takes: "a path", defaultText: "`/v2/health` (v1.4: `/v1/health`)",
        "the route that checks Entrupy answers and accepts the token")
    public static let includeCatalog = BoolSetting("entrupy_api_include_catalog", default: false,
        "v2: item fetches ask for catalog data too (`include_catalog=true`); images are always asked for (`include_images=true`)")
    public static let flagPath = TextSetting("entrupy_api_flag_path", takes: "a path with `{id}`", default: "/v2/authentications/{id}/flag",
        "the route of v2's \"Flag an authentication\" (in either version); its path is our reading (docs/entrupy.md)")
    public static let flagReasons = TextSetting("entrupy_flag_reasons", takes: "reason ids, comma-separated", defaultText: "none: any reason is passed on",
        "the flag reasons support may pick when Entrupy's item names none (`supported_flag_reasons`)")
    public static let rate = IntegerSetting("entrupy_api_rate", default: 10, range: 1...10_000,
        "the organisation's limit: API requests in any one second by all replicas together; webhook reconciles go first, then people, then background work",
        audience: .operator(why: "to match the limit Entrupy set for your organisation"))
    public static let timeout = IntegerSetting("entrupy_api_timeout_seconds", default: 10, range: 1...300, "per API request")
    public static let healthInterval = IntegerSetting("entrupy_health_interval_seconds", default: 30, range: 1...3_600,
        "how often the health route checks that Entrupy answers and accepts the token (`/readyz`, `relay_entrupy_up`)")

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [
        url.setting, token.setting, version.setting, versionHeader.setting, itemPath.setting, lookupPath.setting, searchPath.setting,
        healthPath.setting, includeCatalog.setting, flagPath.setting, flagReasons.setting, rate.setting, timeout.setting, healthInterval.setting,
    ]
}
