import Foundation
public import AsyncHTTPClient
public import EntrupyAPI
import Logging
public import PostgresNIO
import RelayModel
import RelayRuntime
public import RelayQueue
public import RelayNotify
import RelayRules
public import RelayStore
public import RelayWorker
public import ServiceLifecycle

/// Everything a worker process runs: the Entrupy API client (with its process-wide rate
/// budget), the rules, the reconcile pipeline, the job worker with the reconcile and deliver
/// handlers, the sweep, the sync by search, Entrupy's health check, the folding of item count
/// changes, and the SIGHUP rules reloader.
public struct WorkerAssembly {
    public let api: EntrupyAPIClient
    public let queue: PostgresJobQueue
    public let items: PostgresItemStore
    public let deliveries: PostgresDeliveryStore
    public let rules: RulesStore
    public let pipeline: ReconcilePipeline
    public let worker: JobWorker
    public let sweep: SweepService
    /// Items with no final result past their threshold; nil when ENTRUPY_RELAY_OVERDUE_INTERVAL_SECONDS is 0.
    public let overdue: OverdueService?
    /// Re-verification by search; nil when ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS is 0.
    public let sync: SyncService?
    /// Entrupy's health (the version's health route), for `/readyz` and `relay_entrupy_up`.
    public let health: EntrupyHealthMonitor
    public let countFold: CountFoldService
    /// Retention: the pruner's passes (one replica at a time).
    public let prune: PruneService
    /// Targets' breakers: probes and the drain of held deliveries.
    public let targetProbes: TargetProbeService
    let reloader: RulesReloadService
    let httpService: ShutdownHook
    let callbackHTTPService: ShutdownHook
    let smtpService: ShutdownHook?
    /// The job worker's own pool, for its bookkeeping: claims, lease renewals, maintenance
    /// and the outcomes of runs that wrote nothing else (a reconcile's). Its commits do not
    /// wait for the WAL flush (`synchronous_commit = off`). If PostgreSQL itself crashes, the
    /// last fraction of a second of them can be undone and the jobs concerned run again (a
    /// reconcile finds the item already stored). Everything that is data is written on the
    /// synchronous pool: webhooks, items, timelines, deliveries, and a delivery's attempt
    /// and state (a run carrying a `JobRecordWrite` is recorded there). Without this pool every
    /// claim and every outcome waited for an fsync shared with the receiver's commits.
    let bookkeeping: PostgresClient
    /// Its size: the NOTIFY listener holds one; the claim loop, lease renewals, outcomes and
    /// maintenance (four users, one statement at a time each) share the other three.
    public static let bookkeepingConnections = 4
    /// How long a sync pass may take to end after SIGTERM before it is left behind.
    static let passAbandonment: Duration = .seconds(2)
    let logger: Logger

    /// Throws `SettingsError` for an unusable SMTP configuration and `RuleSetError` for a bad rules file.
    public init(settings: RelaySettings, client: PostgresClient, logger: Logger) throws {
        self.logger = logger
        // What can fail comes first: an HTTPClient made before a throw would never be shut down.
        bookkeeping = try DatabaseClientFactory.makeClient(settings.database.url, poolSize: Self.bookkeepingConnections,
                                                           synchronousCommit: false, logger: logger)
        let rules = try Self.rulesStore(settings: settings)
        let smtp = try Self.smtpClient(settings: settings)
        let http = EntrupyAPIClient.makeHTTPClient()
        httpService = ShutdownHook { try await http.shutdown() }
        smtpService = smtp.map { client in ShutdownHook { await client.shutdown() } }
        let callbackSender = Self.callbackSender(settings: settings)
        callbackHTTPService = ShutdownHook { await callbackSender.shutdown() }

        api = Self.apiClient(settings: settings, http: http, database: client, logger: logger)
        queue = PostgresJobQueue(client: client, logger: logger)
        items = PostgresItemStore(client: client, logger: logger)
        deliveries = PostgresDeliveryStore(client: client, logger: logger)
        self.rules = rules
        reloader = RulesReloadService(store: rules, logger: logger)
        pipeline = ReconcilePipeline(api: api, store: PostgresReconcileStore(client: client, logger: logger), rules: rules, logger: logger)
        health = Self.healthMonitor(settings: settings, api: api, logger: logger)

        let targetHealth = PostgresTargetHealthStore(client: client, logger: logger)
        let configuration = Self.jobWorkerConfiguration(settings: settings)
        let handlers = JobHandlers(settings: settings, client: client, logger: logger, workerID: configuration.workerID)
        worker = JobWorker(
            queue: PostgresJobQueue(client: bookkeeping, logger: logger), recordsClient: client,
            handlers: handlers.reconcile(pipeline: pipeline, health: health)
                + [handlers.deliver(deliveries: deliveries, rules: rules, smtp: smtp, callbackSender: callbackSender, targetHealth: targetHealth)],
            configuration: configuration, logger: logger
        )
        targetProbes = TargetProbeService(store: targetHealth, policy: settings.notify.breaker,
                                          probeLease: .seconds(settings.notify.callbackTimeoutSeconds + settings.worker.jobLeaseSeconds), logger: logger)
        sweep = SweepService(store: items, interval: .seconds(settings.worker.sweepIntervalSeconds),
                             age: .seconds(settings.worker.sweepAgeSeconds), logger: logger)
        overdue = settings.worker.overdueIntervalSeconds == 0 ? nil
            : OverdueService(store: PostgresOverdueStore(client: client, logger: logger), thresholds: settings.worker.overdueThresholds,
                             interval: .seconds(settings.worker.overdueIntervalSeconds), logger: logger)
        countFold = CountFoldService(items: items, logger: logger)
        prune = PruneService(pruner: Self.pruner(settings: settings, client: client, logger: logger),
                             interval: .seconds(settings.retention.intervalSeconds), logger: logger)
        sync = settings.worker.syncIntervalSeconds == 0 ? nil
            : Self.syncService(settings: settings, api: api, pipeline: pipeline, client: client, logger: logger)
        Self.logRules(settings: settings, rules: rules, logger: logger)
    }

    /// Says at start which rules the worker applies, or that it sends nothing.
    static func logRules(settings: RelaySettings, rules: RulesStore, logger: Logger) {
        if let path = settings.notify.rulesFile {
            logger.info("rules loaded", metadata: ["file": "\(path)", "rules": "\(rules.current.rules.count)"])
        } else {
            logger.info("no ENTRUPY_RELAY_RULES_FILE: transitions are recorded, nothing is sent")
        }
    }

    /// Entrupy's health check as the settings describe it (the worker's, or `serve --no-worker`'s own).
    public static func healthMonitor(settings: RelaySettings, api: EntrupyAPIClient, logger: Logger) -> EntrupyHealthMonitor {
        EntrupyHealthMonitor(api: api, interval: .seconds(settings.entrupy.healthIntervalSeconds), logger: logger)
    }

    /// The sync by search as the settings describe it (the worker's, and `sync run`'s).
    public static func syncService(settings: RelaySettings, api: EntrupyAPIClient, pipeline: ReconcilePipeline,
                                   client: PostgresClient, logger: Logger) -> SyncService {
        SyncService(
            api: api, pipeline: pipeline, store: PostgresSyncStore(client: client, logger: logger),
            interval: .seconds(max(1, settings.worker.syncIntervalSeconds)), lookback: .seconds(settings.worker.syncLookbackDays * 86_400),
            tiers: settings.worker.syncTiers, budget: RateBudget(ratePerSecond: settings.entrupy.rate * settings.worker.syncBudgetShare),
            categories: settings.worker.syncCategories, logger: logger)
    }

    /// The pruner as the settings describe it (the worker's, and `prune`'s).
    public static func pruner(settings: RelaySettings, client: PostgresClient, logger: Logger) -> Pruner {
        Pruner(store: PostgresRetentionStore(client: client, logger: logger), policy: settings.retention.policy,
               pacing: settings.retention.pacing, logger: logger)
    }

    public static func rulesStore(settings: RelaySettings) throws -> RulesStore {
        let reader = settings.reader
        return try RulesStore(path: settings.notify.rulesFile, parser: RuleSetParser(secret: { try reader.namedSecret($0) }))
    }

    /// The SMTP client when `smtp_url` is set; `smtp_password` (or its file) overrides the URL's password.
    public static func smtpClient(settings: RelaySettings) throws -> SMTPClient? {
        guard let url = settings.notify.smtpURL, let from = settings.notify.smtpFrom else { return nil }
        do {
            let configuration = try SMTPConfiguration(
                url: url, from: from, password: settings.notify.smtpPassword, heloName: settings.notify.smtpHeloName ?? ProcessInfo.processInfo.hostName, caFile: settings.notify.smtpCAFile,
                commandTimeout: .seconds(settings.notify.smtpTimeoutSeconds))
            // One kept connection per email that may be under way at once.
            return try SMTPClient(configuration: configuration, poolSize: settings.notify.targetConcurrency)
        } catch let error as SMTPConfiguration.Invalid {
            let setting = error.input == .from ? NotifySettings.smtpFrom : NotifySettings.smtpURL
            throw SettingsError.invalid(name: settings.reader.origin(setting.setting), reason: error.description)
        } catch {
            throw SettingsError.invalid(name: settings.reader.origin(NotifySettings.smtpCAFile.setting), reason: "cannot set up TLS: \(error)")
        }
    }

    /// The API client every process uses, drawing on the budget all replicas share in `database`.
    public static func apiClient(settings: RelaySettings, http: HTTPClient, database: PostgresClient, logger: Logger) -> EntrupyAPIClient {
        EntrupyAPIClient(
            configuration: EntrupyAPIConfiguration(
                baseURL: settings.entrupy.url, token: settings.entrupy.token ?? "", routes: settings.entrupy.routes,
                requestTimeout: .seconds(settings.entrupy.timeoutSeconds)
            ),
            http: http, budget: PostgresAPIBudget(client: database, ratePerSecond: settings.entrupy.rate, logger: logger), logger: logger
        )
    }

    /// The worker's own pool (its bookkeeping), to be closed after `services` have all stopped
    /// (`BoundedServiceGroup`'s `closingLast`): the job worker's last records go through it.
    public var pools: [any Service] { [bookkeeping] }

    /// In start order; a `ServiceGroup` stops them in reverse: reloader, count folding, sync,
    /// sweep and worker first (running jobs and deliveries finish), then the HTTP clients they used.
    /// The sync is stopped within a bounded time (`PromptStop`): its pass resumes from its checkpoint.
    public var services: [any Service] {
        let overduePasses: [any Service] = overdue.map { [$0] } ?? []
        return [httpService, callbackHTTPService] + (smtpService.map { [$0] } ?? []) + [health, worker, sweep] + overduePasses
            + (sync.map { [PromptStop($0, within: Self.passAbandonment, logger: logger)] } ?? []) + [countFold, prune, targetProbes, reloader]
    }
}
