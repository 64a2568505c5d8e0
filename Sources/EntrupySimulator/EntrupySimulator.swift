public import Hummingbird
public import Logging
import NIOCore
public import ServiceLifecycle

/// A stand-in Entrupy for local runs, tests and load: the REST API of the contract, an admin
/// API to change items and the world's behaviour, and a webhook sender that signs and retries
/// like a provider. It shares no code with the relay, so it can check it.
public struct EntrupySimulator {
    public let application: Application<RouterResponder<BasicRequestContext>>
    let sender: WebhookSender
    let flagResolver: SimFlagResolver

    public init(configuration: SimulatorConfiguration, logger: Logger,
                onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) {
        let store = SimulatorStore(organisation: configuration.organisation, seed: configuration.seed)
        sender = WebhookSender(url: configuration.webhookURL, secret: configuration.webhookSecret, store: store, logger: logger)
        let router = Router()
        router.add(middleware: SimErrorMiddleware(logger: logger))
        let flags = SimFlagRoutes(store: store, desk: SimFlagDesk(), sender: sender)
        flagResolver = SimFlagResolver(store: store, desk: flags.desk, sender: sender)
        var api = SimulatorAPIController(store: store, configuration: configuration)
        api.flags = flags
        api.addRoutes(to: router)
        flags.addAdminRoutes(to: router)
        AdminItemRoutes(store: store, sender: sender).addRoutes(to: router)
        AdminDriveRoutes(store: store, sender: sender).addRoutes(to: router)
        AdminEventRoutes(store: store, sender: sender).addRoutes(to: router)
        AdminConfigRoutes(store: store).addRoutes(to: router)
        SimMediaRoutes().addRoutes(to: router)
        // Photos point at this server once its port is known (0 asks for any free one).
        let host = ["0.0.0.0", "::", ""].contains(configuration.host) ? "127.0.0.1" : configuration.host
        application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "entrupy-sim"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
                store.setMedia("http://\(authority)\(SimMediaRoutes.prefix)")
                await onServerRunning(channel)
            },
            logger: logger
        )
    }

    /// In start order: the sender outlives the server so queued webhooks still go out.
    public var services: [any Service] { [sender, flagResolver, application] }
}
