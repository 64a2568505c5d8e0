import ArgumentParser
import RelayApp
import RelayRuntime
import RelayModel

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP server and, unless --no-worker, a job worker in the same process.",
        discussion: """
            The server answers:
              POST /webhooks/entrupy  the receiver: signed webhooks, stored before 2xx
              GET /healthz, /readyz   liveness; readiness (database, migrations)
              GET /metrics            Prometheus metrics
              /v1/...                 the query API: items, deliveries, events,
                                      SDK authorize (Bearer token; /openapi.json)
              /console                the support console (sign in with a token)

            The in-process worker reconciles webhooks and items with the Entrupy API, delivers emails and callbacks, sweeps and syncs by search for missed changes, folds the search's item counts, checks Entrupy's health and reloads rules on SIGHUP. With --no-worker, run `entrupy-relay worker` elsewhere. Settings come from the environment or a YAML file (docs/configuration.md, or `entrupy-relay config reference`).
            """
    )

    @Option(help: "Address to listen on (overrides ENTRUPY_RELAY_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (overrides ENTRUPY_RELAY_PORT; default 8080).")
    var port: Int?

    @Flag(help: "Do not run a job worker in this process (run `entrupy-relay worker` elsewhere).")
    var noWorker = false

    func run() async throws {
        let environment = try CommandEnvironment(receiving: true, reconciling: !noWorker)
        var settings = environment.settings
        if let host { settings.http.host = host }
        if let port {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
            settings.http.port = port
        }
        let catalog = try environment.migrationCatalog()
        let registry = MetricsBootstrap.prometheus()
        let logger = environment.logger
        // Before any HTTP client is made: a client takes the tracer in force when it is made.
        let tracing = try CommandEnvironment.assemble { try TracingBootstrap.bootstrap(settings.tracing, logger: logger) }
        let client = try DatabaseClientFactory.makeClient(settings.database.url, poolSize: settings.database.poolSize, logger: logger)
        let server = try CommandEnvironment.assemble {
            // Under systemd (Type=notify) the unit is started once the port takes requests.
            try RelayServer(settings: settings, client: client, catalog: catalog, registry: registry, logger: logger, runWorker: !noWorker,
                            onServerRunning: { _ in SystemdNotifier.notify("READY=1") })
        }
        logger.info("starting", metadata: [
            "address": "\(settings.http.host):\(settings.http.port)", "worker": "\(!noWorker)", "database": "\(settings.database.url)",
            "entrupy_secrets": "\(settings.receiver.entrupyWebhookSecrets.count)",
            "standard_webhook_secrets": "\(settings.receiver.standardWebhookSecrets.count)",
        ])
        try await server.run(grace: .seconds(settings.shutdownGraceSeconds), first: tracing.map { [$0] } ?? [], logger: logger)
        logger.info("stopped")
    }
}
