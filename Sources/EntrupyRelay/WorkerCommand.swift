import ArgumentParser
import RelayApp
import RelayCore
import ServiceLifecycle

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run jobs (reconcile webhooks and items) and the sweep, without an HTTP server. Run as many as you like."
    )

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false, reconciling: true)
        let settings = environment.settings
        let logger = environment.logger
        _ = MetricsBootstrap.prometheus()
        let client = try DatabaseClientFactory.makeClient(settings.database, poolSize: settings.databasePoolSize, logger: logger)
        let worker = WorkerAssembly(settings: settings, client: client, logger: logger)
        logger.info("worker starting", metadata: ["concurrency": "\(settings.workerConcurrency)", "api": "\(settings.entrupyAPIURL)"])
        let group = ServiceGroup(configuration: .init(
            services: ([client] + worker.services).map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }
}
