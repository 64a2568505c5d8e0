import ArgumentParser
import RelayApp
import RelayModel
import ServiceLifecycle

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run jobs without an HTTP server: reconcile webhooks and items, deliver emails and callbacks, sweep, sync by search (one replica at a time), fold the search's item counts, check Entrupy's health, reload rules on SIGHUP. Run as many as you like."
    )

    @Option(help: "Serve /healthz, /readyz and /metrics on this port (none by default).")
    var port: Int?

    @Option(help: "Address for --port (default: the metrics_host setting, 127.0.0.1 unless set).")
    var host: String?

    func validate() throws {
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be from 1 to 65535") }
    }

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false, reconciling: true)
        let settings = environment.settings
        let logger = environment.logger
        let registry = MetricsBootstrap.prometheus()
        // Before any HTTP client is made: a client takes the tracer in force when it is made.
        let tracing = try CommandEnvironment.assemble { try TracingBootstrap.bootstrap(settings.tracing, logger: logger) }
        let client = try DatabaseClientFactory.makeClient(settings.database.url, poolSize: settings.database.poolSize, logger: logger)
        let worker = try CommandEnvironment.assemble { try WorkerAssembly(settings: settings, client: client, logger: logger) }
        let warmup = PoolWarmup(client: client, connections: settings.database.poolWarmSize, logger: logger)
        // The trace exporter first (in `closingLast`): it stops last, after every span has ended.
        // The pools close last, once every service that writes through them has returned.
        var services: [any Service] = [warmup] + worker.services
        if let port {
            let feedLag = ChangeFeedLagMonitor(client: client, logger: logger)
            services.append(feedLag)
            services.append(OperationsServer.make(host: host ?? settings.http.metricsHost, port: port, client: client, warmup: warmup, catalog: try environment.migrationCatalog(),
                                                  registry: registry, entrupy: worker.health, feedLag: feedLag, idleTimeout: .seconds(settings.http.idleTimeoutSeconds),
                                                  maxConnections: settings.http.maxConnections, logger: logger))
        }
        services.append(SystemdReadyService())
        logger.info("worker starting", metadata: ["concurrency": "\(settings.worker.concurrency)", "api": "\(settings.entrupy.url)"])
        try await BoundedServiceGroup.run(services, closingLast: (tracing.map { [$0] } ?? []) + [client] + worker.pools,
                                          grace: .seconds(settings.shutdownGraceSeconds), logger: logger)
    }
}
