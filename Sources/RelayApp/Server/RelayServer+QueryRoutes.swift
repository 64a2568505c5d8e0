import EntrupyAPI
import Hummingbird
import Logging
import PostgresNIO
import RelayCore
import RelayHTTP
import RelayStore

extension RelayServer {
    /// `/v1/...`, `/openapi.json` and `/console/...`, sharing one authenticator (and so one
    /// count of failed sign-ins per client address).
    static func addQueryRoutes(to router: Router<RelayRequestContext>, settings: RelaySettings, client: PostgresClient,
                               api: EntrupyAPIClient?, logger: Logger) {
        let tokens = PostgresTokenRepository(client: client, logger: logger)
        let auth = BearerAuthenticator(
            tokens: tokens, addressResolver: ClientAddressResolver(trustedProxies: settings.trustedProxies),
            limiter: FailedAttemptLimiter(limit: settings.authFailureLimit, window: .seconds(settings.authFailureWindowSeconds)))
        let items = PostgresItemRepository(client: client, logger: logger)
        let deliveries = PostgresDeliveryRepository(client: client, logger: logger)

        ItemsAPIController(auth: auth, items: items).addRoutes(to: router)
        DeliveriesAPIController(auth: auth, deliveries: deliveries).addRoutes(to: router)
        EventsAPIController(auth: auth, events: PostgresWebhookEventRepository(
            client: client, logger: logger, reconcileMaxAttempts: settings.reconcileMaxAttempts)).addRoutes(to: router)
        SDKAuthorizeController(auth: auth, api: api, users: PostgresSDKUserRepository(client: client, logger: logger))
            .addRoutes(to: router)
        OpenAPIController().addRoutes(to: router)
        ConsoleController(
            auth: auth, tokens: tokens, sessions: PostgresSessionRepository(client: client, logger: logger), items: items,
            deliveries: deliveries,
            sessionLifetime: .seconds(settings.consoleSessionHours * 3600), secureCookies: settings.consoleSecureCookies
        ).addRoutes(to: router)
    }
}
