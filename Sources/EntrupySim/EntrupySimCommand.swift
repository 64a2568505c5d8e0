import ArgumentParser
import EntrupySimulator
import Logging
import ServiceLifecycle

/// `entrupy-sim`: a local stand-in for Entrupy's API and webhooks.
@main
struct EntrupySimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrupy-sim",
        abstract: "Simulate Entrupy: the REST API (health, lookup, get, search, authorize-user), signed webhooks, and /_sim admin routes."
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8090
    @Option(help: "Where to POST change webhooks (none sent when omitted).") var webhookURL: String?
    @Option(help: "Secret that signs webhooks (Entrupy-Signature).") var webhookSecret = "sim-secret"
    @Option(help: "Token API clients must send as 'Authorization: Token <token>'.") var apiToken = "sim-token"
    @Option(help: "Organisation name: owner of every item and prefix of authorize-user usernames.") var organisation = "SimOrg"
    @Option(help: "Seed of the random generator, so a run can be repeated (drawn when omitted; see GET /_sim/config).")
    var seed: Int64?

    func run() async throws {
        var logger = Logger(label: "entrupy-sim")
        logger.logLevel = .info
        let simulator = EntrupySimulator(
            configuration: .init(host: host, port: port, webhookURL: webhookURL, webhookSecret: webhookSecret, apiToken: apiToken,
                                 organisation: organisation, seed: seed.map { UInt64(bitPattern: $0) }),
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(
            services: simulator.services.map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        ))
        try await group.run()
    }
}
