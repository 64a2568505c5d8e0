import EntrupyAPI
import Hummingbird
import Logging
import PostgresNIO
import RelayModel
import RelayHTTP
import RelayStore
import RelayWorker

extension RelayServer {
    /// `/v1/...`, `/openapi.json` and `/console/...`, sharing one authenticator (and so one
    /// count of failed sign-ins per client address), on `client`: the API's own pool.
    static func addQueryRoutes(to router: Router<RelayRequestContext>, settings: RelaySettings, client: PostgresClient,
                               api: EntrupyAPIClient?, rules: RulesStore, importer: (any ItemImporting)?, logger: Logger) {
        let tokens = PostgresTokenStore(client: client, logger: logger)
        let auth = BearerAuthenticator(
            tokens: tokens, addressResolver: ClientAddressResolver(trustedProxies: settings.http.trustedProxies),
            limiter: PostgresSignInLimiter(client: client, limit: settings.http.authFailureLimit,
                                           window: .seconds(settings.http.authFailureWindowSeconds), logger: logger))
        var routes = QueryRoutes(
            auth: auth, sessions: PostgresSessionStore(client: client, logger: logger),
            items: PostgresItemStore(client: client, logger: logger),
            deliveries: PostgresDeliveryStore(client: client, logger: logger),
            events: PostgresWebhookEventStore(client: client, logger: logger, reconcileMaxAttempts: settings.worker.reconcileMaxAttempts),
            sdkUsers: PostgresSDKUserStore(client: client, logger: logger), api: api, importer: importer,
            overview: PostgresOverviewStore(client: client, logger: logger),
            sessionLifetime: .seconds(settings.http.consoleSessionHours * 3600), secureCookies: settings.http.consoleSecureCookies,
            tokenConcurrency: settings.http.apiTokenConcurrency,
            slots: PostgresRequestSlots(client: client, logger: logger),
            exports: ExportGate(limit: settings.http.exportConcurrency),
            sdkRate: PostgresCallerRate(client: client, route: "sdk_authorize", limit: settings.http.sdkAuthorizePerMinute,
                                        window: .seconds(60), logger: logger),
            imageSources: settings.http.consoleImageSources,
            erasures: PostgresErasureStore(client: client, logger: logger),
            changes: PostgresChangeFeed(client: client, logger: logger),
            targets: RuledTargetControl(store: PostgresTargetHealthStore(client: client, logger: logger), rules: rules)
        )
        routes.itemActions = .postgres(client: client, api: api, settings: settings, logger: logger)
        routes.targetTests = RuledTargetTester(rules: rules, settings: settings, logger: logger)
        routes.silences = PostgresSilenceStore(client: client, logger: logger)
        if settings.notify.rulesFile != nil { routes.silenceRuleNames = { Set(rules.current.rules.map(\.name)) } }
        routes.add(to: router)
    }
}
