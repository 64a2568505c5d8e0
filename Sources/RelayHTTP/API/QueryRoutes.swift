public import EntrupyAPI
public import Hummingbird
import RelayModel

/// Every route people and downstream systems call besides the receiver: `/v1/...` behind a
/// bearer token (one middleware for the group, a declared permission on each route),
/// `/openapi.json`, and `/console/...` behind a session. The stores are ports, so the router
/// tests run the whole role × route matrix on in-memory doubles.
public struct QueryRoutes: Sendable {
    public var auth: BearerAuthenticator
    public var sessions: any ConsoleSessionStore
    public var items: any ItemQueries
    public var deliveries: any DeliveryQueries
    public var events: any WebhookEventQueries
    public var sdkUsers: any SDKUserStore
    /// Nil when the Entrupy API is not configured (`/v1/sdk/authorize` answers 503).
    public var api: EntrupyAPIClient?
    /// Nil when the Entrupy API is not configured (`/v1/items/import` answers 503).
    public var importer: (any ItemImporting)?
    /// The console overview's numbers (nil in router tests: it answers 503).
    public var overview: (any OverviewQueries)?
    public var sessionLifetime: Duration
    public var secureCookies: Bool
    /// Requests one token may have under way at once (ENTRUPY_RELAY_API_TOKEN_CONCURRENCY), counted by `slots`.
    public var tokenConcurrency: Int
    public var slots: any RequestSlots
    /// Exports streaming at once in this process (ENTRUPY_RELAY_EXPORT_CONCURRENCY).
    public var exports: ExportGate
    /// SDK authorize calls per token (ENTRUPY_RELAY_SDK_AUTHORIZE_PER_MINUTE); nil: unlimited (router tests).
    public var sdkRate: (any CallerRate)?
    /// Where the console may load photos from (ENTRUPY_RELAY_CONSOLE_IMAGE_SOURCES).
    public var imageSources: [String]
    /// Erasure (`/v1/erasures`); nil: the routes are not served.
    public var erasures: (any ErasureStoring)?
    /// The change feed (`/v1/changes`); nil: the route is not served.
    public var changes: (any ChangeFeedQueries)?
    /// Delivery targets' health (`/v1/targets`); nil: the routes are not served.
    public var targets: (any TargetQueries)?
    /// Flag and refresh (`/v1/items/{id}/flag`, `/refresh` and the console's); nil: they answer 503.
    public var itemActions: ItemActions?
    /// Test sends to the rules' targets (`/v1/targets/test`, the console's "Send test"); nil: not served.
    public var targetTests: (any TargetTesting)?
    /// Silences (`/v1/silences`, the console's Silences page); nil: not served.
    public var silences: (any SilenceStoring)?
    /// The rule names of the rules file in force, when one is set: a silence must name one of them.
    public var silenceRuleNames: (@Sendable () -> Set<String>)?

    public init(auth: BearerAuthenticator, sessions: any ConsoleSessionStore, items: any ItemQueries,
                deliveries: any DeliveryQueries, events: any WebhookEventQueries, sdkUsers: any SDKUserStore,
                api: EntrupyAPIClient?, importer: (any ItemImporting)? = nil, overview: (any OverviewQueries)? = nil,
                sessionLifetime: Duration, secureCookies: Bool, tokenConcurrency: Int = 8,
                slots: any RequestSlots = MemoryRequestSlots(), exports: ExportGate = ExportGate(limit: 4),
                sdkRate: (any CallerRate)? = nil, imageSources: [String] = ConsoleController.defaultImageSources,
                erasures: (any ErasureStoring)? = nil, changes: (any ChangeFeedQueries)? = nil,
                targets: (any TargetQueries)? = nil) {
        self.targets = targets
        self.erasures = erasures
        self.changes = changes
        self.slots = slots
        self.exports = exports
        self.sdkRate = sdkRate
        self.imageSources = imageSources
        self.importer = importer
        self.overview = overview
        self.auth = auth
        self.sessions = sessions
        self.items = items
        self.deliveries = deliveries
        self.events = events
        self.sdkUsers = sdkUsers
        self.api = api
        self.sessionLifetime = sessionLifetime
        self.secureCookies = secureCookies
        self.tokenConcurrency = tokenConcurrency
    }

    public func add(to router: Router<RelayRequestContext>) {
        let v1 = router.group("v1")
            .add(middleware: BearerAuthMiddleware(auth: auth))
            .add(middleware: TokenConcurrencyMiddleware(slots: slots, limit: tokenConcurrency))
        ItemsAPIController(items: items, importer: importer, exports: exports).addRoutes(to: v1)
        ItemActionsAPIController(items: items, actions: itemActions).addRoutes(to: v1)
        DeliveriesAPIController(deliveries: deliveries).addRoutes(to: v1)
        EventsAPIController(events: events).addRoutes(to: v1)
        if let erasures { ErasuresAPIController(erasures: erasures).addRoutes(to: v1) }
        if let changes { ChangesAPIController(feed: changes).addRoutes(to: v1) }
        if let targets { TargetsAPIController(targets: targets).addRoutes(to: v1) }
        if let targetTests { TargetTestAPIController(tests: targetTests).addRoutes(to: v1) }
        if let silences { SilencesAPIController(silences: silences, ruleNames: silenceRuleNames).addRoutes(to: v1) }
        SDKAuthorizeController(api: api, users: sdkUsers, rate: sdkRate).addRoutes(to: v1)
        OpenAPIController().addRoutes(to: router)
        var console = ConsoleController(auth: auth, sessions: sessions, items: items, deliveries: deliveries, importer: importer,
                                        overview: overview, targets: targets,
                                        sessionLifetime: sessionLifetime, secureCookies: secureCookies, exports: exports, slots: slots,
                                        tokenConcurrency: tokenConcurrency, imageSources: imageSources)
        console.actions = itemActions
        console.targetTests = targetTests
        console.silences = silences
        console.silenceRuleNames = silenceRuleNames
        console.addRoutes(to: router)
    }
}
