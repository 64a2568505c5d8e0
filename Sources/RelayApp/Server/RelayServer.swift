import Foundation
import EntrupyAPI
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
public import PostgresNIO
public import Prometheus
import RelayModel
public import RelayHTTP
public import RelayStore
import RelayWorker
public import ServiceLifecycle

/// Wires the `serve` process: the HTTP application and the services it needs, in the order
/// a `ServiceGroup` must start them. The group stops them in reverse on SIGTERM: the HTTP
/// server first (no new requests, in-flight ones finish), then the ingestor (drains its
/// queue), then the database pool.
public struct RelayServer {
    public let application: Application<RouterResponder<RelayRequestContext>>
    public let ingestor: GroupCommitIngestor
    let hangupService: HangupWithoutWorkerService?
    public let client: PostgresClient
    /// Opens `ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE` connections at start; `/readyz` waits for it.
    public let warmup: PoolWarmup
    /// The query API's and console's pool: its own connections, each statement bounded.
    public let apiClient: PostgresClient
    /// The in-process worker, unless `serve --no-worker`.
    public let worker: WorkerAssembly?
    /// The HTTP client of the SDK endpoint's Entrupy API client, when the worker does not lend its own.
    let apiHTTPService: ShutdownHook?
    /// Entrupy's health for `/readyz` and `relay_entrupy_up`: the worker's, or its own when
    /// the SDK endpoint has an API client without a worker.
    let entrupyHealth: EntrupyHealthMonitor?
    let ownsEntrupyHealth: Bool
    /// How long an open transaction has held the change feed back (`relay_change_feed_lag_seconds`).
    let feedLag: ChangeFeedLagMonitor
    /// `/metrics` (with `/healthz` and `/readyz`) on ENTRUPY_RELAY_METRICS_PORT, when set.
    let operations: Application<RouterResponder<RelayRequestContext>>?

    public init(settings: RelaySettings, client: PostgresClient, catalog: MigrationCatalog,
                registry: PrometheusCollectorRegistry, logger: Logger, runWorker: Bool = false,
                onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) throws {
        self.client = client
        let warmup = PoolWarmup(client: client, connections: settings.database.poolWarmSize, logger: logger)
        self.warmup = warmup
        apiClient = try DatabaseClientFactory.makeClient(
            settings.database.url, poolSize: settings.database.apiPoolSize,
            statementTimeout: .milliseconds(settings.database.apiStatementTimeoutMilliseconds), logger: logger)
        worker = runWorker ? try WorkerAssembly(settings: settings, client: client, logger: logger) : nil
        hangupService = runWorker ? nil : HangupWithoutWorkerService(logger: logger)
        // With the worker here, the reconcile jobs of stored webhooks go straight to it (`JobHandoff`).
        let repository = PostgresWebhookEventStore(client: client, logger: logger, reconcileMaxAttempts: settings.worker.reconcileMaxAttempts,
                                                   handoff: worker?.worker.handoff)
        ingestor = GroupCommitIngestor(
            repository: repository, writers: settings.receiver.ingestWriters, maxBatch: settings.receiver.ingestMaxBatch,
            storeTimeout: .milliseconds(settings.receiver.storeTimeoutMilliseconds), logger: logger
        )
        // Read before anything that needs a shutdown is made (an HTTP client must not be dropped
        // unclosed): a rules file that cannot be read stops `serve` here with the parser's message.
        // The rules also plan the alerts of an operator's target enable or disable.
        let rules = try worker?.rules ?? WorkerAssembly.rulesStore(settings: settings)
        // The Entrupy API client of the SDK endpoint (the worker's when there is one) and its health.
        var api = worker?.api
        var apiHTTPService: ShutdownHook?
        if api == nil, settings.entrupy.token != nil {
            let http = EntrupyAPIClient.makeHTTPClient()
            apiHTTPService = ShutdownHook { try await http.shutdown() }
            api = WorkerAssembly.apiClient(settings: settings, http: http, database: client, logger: logger)
        }
        self.apiHTTPService = apiHTTPService
        let monitor = worker?.health ?? api.map { WorkerAssembly.healthMonitor(settings: settings, api: $0, logger: logger) }
        entrupyHealth = monitor
        ownsEntrupyHealth = worker == nil && monitor != nil
        let feedLag = ChangeFeedLagMonitor(client: client, logger: logger)
        self.feedLag = feedLag
        operations = settings.http.metricsPort.map { port in
            OperationsServer.make(host: settings.http.metricsHost, port: port, client: client, warmup: warmup, catalog: catalog, registry: registry,
                                  entrupy: monitor, feedLag: feedLag, idleTimeout: .seconds(settings.http.idleTimeoutSeconds), maxConnections: 64, logger: logger)
        }
        let router = Self.buildRouter(
            settings: settings, ingestor: ingestor, rejectionLog: repository,
            readiness: DatabaseReadinessCheck(client: client, warmup: warmup, catalog: catalog, entrupy: monitor, logger: logger),
            registry: registry, apiClient: apiClient, api: api, rules: rules,
            importer: Self.importer(worker: worker, api: api, rules: rules, client: client, logger: logger), logger: logger)
        application = Self.buildApplication(router: router, settings: settings, onServerRunning: onServerRunning, logger: logger)
    }

    /// The public port's routes: the receiver, health, then the query API, the console and the SDK endpoint.
    static func buildRouter(settings: RelaySettings, ingestor: GroupCommitIngestor, rejectionLog: any WebhookRejectionLog,
                            readiness: any ReadinessCheck,
                            registry: PrometheusCollectorRegistry, apiClient: PostgresClient, api: EntrupyAPIClient?,
                            rules: RulesStore, importer: (any ItemImporting)?, logger: Logger) -> Router<RelayRequestContext> {
        let router = Router(context: RelayRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        // A server span per request, a new trace linked to a caller's traceparent, the query's
        // values redacted, none for probes and scrapes (only while tracing is on).
        if settings.tracing.wanted { router.add(middleware: PublicTracingMiddleware<RelayRequestContext>()) }
        if settings.http.publicURLIsHTTPS { router.add(middleware: StrictTransportSecurityMiddleware<RelayRequestContext>()) }
        router.add(middleware: JSONErrorMiddleware<RelayRequestContext>())
        router.add(middleware: MetricsMiddleware<RelayRequestContext>())
        let routeMethods = RouteMethods()
        router.add(middleware: MethodNotAllowedMiddleware<RelayRequestContext>(routes: routeMethods))
        let verifier = WebhookVerifier(
            entrupySecrets: settings.receiver.entrupyWebhookSecrets, standardSecrets: settings.receiver.standardWebhookSecrets,
            tolerance: Double(settings.receiver.standardWebhookToleranceSeconds)
        )
        WebhookController(
            verifier: verifier, ingestor: ingestor,
            addressResolver: ClientAddressResolver(trustedProxies: settings.http.trustedProxies),
            maxBodyBytes: settings.receiver.webhookMaxBodyBytes,
            maxConcurrentBodies: settings.receiver.webhookMaxConcurrentBodies,
            bodiesPerClient: settings.receiver.webhookBodiesPerClient,
            rejections: RejectionRecorder(log: rejectionLog)
        ).addRoutes(to: router)
        HealthController(readiness: readiness, registry: registry, servesMetrics: settings.http.metricsPort == nil, detailed: false)
            .addRoutes(to: router)
        addQueryRoutes(to: router, settings: settings, client: apiClient, api: api, rules: rules, importer: importer, logger: logger)
        routeMethods.set(from: router)
        return router
    }

    /// The public server: a client that stops sending is disconnected instead of holding a
    /// connection forever, and a body must arrive whole within ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS
    /// (a drip resets the idle timer, not this).
    static func buildApplication(router: Router<RelayRequestContext>, settings: RelaySettings,
                                 onServerRunning: @escaping @Sendable (any Channel) async -> Void,
                                 logger: Logger) -> Application<RouterResponder<RelayRequestContext>> {
        Application(
            router: router,
            server: .http1(configuration: .init(
                additionalChannelHandlers: [RequestBodyDeadlineHandler(limit: .seconds(settings.receiver.webhookBodyTimeoutSeconds))],
                idleTimeout: .seconds(Int64(settings.http.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname(settings.http.host, port: settings.http.port), serverName: nil,
                                 availableConnectionsDelegate: MaximumAvailableConnections(settings.http.maxConnections)),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    /// Import of unseen items runs the reconcile pipeline here: the worker's, or (`--no-worker`)
    /// one of its own with the same rules, never "send nothing" in silence.
    static func importer(worker: WorkerAssembly?, api: EntrupyAPIClient?, rules: RulesStore?, client: PostgresClient,
                         logger: Logger) -> (any ItemImporting)? {
        if let worker { return PipelineItemImporter(pipeline: worker.pipeline) }
        guard let api, let rules else { return nil }
        return PipelineItemImporter(pipeline: ReconcilePipeline(api: api, store: PostgresReconcileStore(client: client, logger: logger),
                                                                rules: rules, logger: logger))
    }

    /// The database pools: they close only once every service that uses them has stopped.
    public var pools: [any Service] {
        [client, apiClient] + (worker?.pools ?? [])
    }

    /// What `serve` runs on the pools, in start order.
    public var poolUsers: [any Service] {
        let hangup: [any Service] = hangupService.map { [$0] } ?? []
        let health: [any Service] = ownsEntrupyHealth ? entrupyHealth.map { [$0] } ?? [] : []
        return [warmup, feedLag] + (apiHTTPService.map { [$0] } ?? []) + health + (worker?.services ?? hangup) + [ingestor, application]
            + (operations.map { [$0] } ?? [])
    }

    /// Everything `serve` runs, in start order, for one plain `ServiceGroup` (as tests run it).
    public var services: [any Service] { pools + poolUsers }

    /// Runs until SIGTERM or SIGINT, then shuts down gracefully within ENTRUPY_RELAY_SHUTDOWN_GRACE_SECONDS.
    /// The pools close after every other service has returned, even one cancelled when the grace
    /// ran out, so nothing that writes meets a closed pool. `first` (the trace exporter) starts
    /// first and stops last, so it exports every span.
    public func run(grace: Duration, first: [any Service] = [], logger: Logger) async throws {
        try await BoundedServiceGroup.run(poolUsers, closingLast: first + pools, grace: grace, logger: logger)
    }
}
