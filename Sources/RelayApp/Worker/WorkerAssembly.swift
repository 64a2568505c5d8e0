import AsyncHTTPClient
import EntrupyAPI
import Logging
import PostgresNIO
import RelayCore
import RelayStore
import RelayWorker
import ServiceLifecycle

/// Everything a worker process runs: the Entrupy API client (with its process-wide rate
/// budget), the job worker with the reconcile handlers, and the sweep.
public struct WorkerAssembly {
    public let api: EntrupyAPIClient
    public let queue: PostgresJobQueue
    public let items: PostgresItemRepository
    public let worker: JobWorker
    public let sweep: SweepService
    let httpService: HTTPClientService

    public init(settings: RelaySettings, client: PostgresClient, logger: Logger) {
        let http = EntrupyAPIClient.makeHTTPClient()
        httpService = HTTPClientService(client: http)
        api = Self.apiClient(settings: settings, http: http, logger: logger)
        queue = PostgresJobQueue(client: client, logger: logger)
        items = PostgresItemRepository(client: client, logger: logger)
        let reconciler = Reconciler(
            api: api, items: items,
            configuration: .init(notFoundAttempts: settings.notFoundAttempts,
                                 notFoundDelay: .milliseconds(max(settings.jobBackoffBaseMilliseconds, 100))),
            logger: logger
        )
        worker = JobWorker(
            queue: queue, client: client,
            handlers: [ReconcileWebhookHandler(reconciler: reconciler, items: items), ReconcileItemHandler(reconciler: reconciler)],
            configuration: JobWorkerConfiguration(
                concurrency: settings.workerConcurrency, lease: .seconds(settings.jobLeaseSeconds),
                pollInterval: .milliseconds(settings.jobPollMilliseconds),
                pruneCompletedAfter: .seconds(settings.pruneCompletedHours * 3600),
                pruneDeadAfter: .seconds(settings.pruneDeadDays * 86_400),
                backoffBase: .milliseconds(settings.jobBackoffBaseMilliseconds)
            ),
            logger: logger
        )
        sweep = SweepService(items: items, queue: queue, interval: .seconds(settings.sweepIntervalSeconds),
                             age: .seconds(settings.sweepAgeSeconds), logger: logger)
    }

    public static func apiClient(settings: RelaySettings, http: HTTPClient, logger: Logger) -> EntrupyAPIClient {
        EntrupyAPIClient(
            configuration: EntrupyAPIConfiguration(
                baseURL: settings.entrupyAPIURL, token: settings.entrupyAPIToken ?? "",
                requestTimeout: .seconds(settings.entrupyAPITimeoutSeconds), ratePerSecond: settings.entrupyAPIRate
            ),
            http: http, budget: RateBudget(ratePerSecond: settings.entrupyAPIRate), logger: logger
        )
    }

    /// In start order; a `ServiceGroup` stops them in reverse: sweep and worker first (running
    /// jobs finish), then the HTTP client they used.
    public var services: [any Service] { [httpService, worker, sweep] }
}
