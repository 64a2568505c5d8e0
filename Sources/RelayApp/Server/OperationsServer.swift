public import EntrupyAPI
public import Hummingbird
import HummingbirdCore
import NIOCore
import Logging
public import PostgresNIO
public import Prometheus
public import RelayHTTP
public import RelayStore

/// `/healthz`, `/readyz` and `/metrics` on their own port, for processes that serve nothing
/// else (`entrupy-relay worker --port P`), so every replica can be probed and scraped.
public enum OperationsServer {
    public static func make(host: String, port: Int, client: PostgresClient, warmup: PoolWarmup? = nil, catalog: MigrationCatalog,
                            registry: PrometheusCollectorRegistry, entrupy: EntrupyHealthMonitor?, feedLag: ChangeFeedLagMonitor? = nil,
                            idleTimeout: Duration, maxConnections: Int, logger: Logger) -> Application<RouterResponder<RelayRequestContext>> {
        let router = Router(context: RelayRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: JSONErrorMiddleware<RelayRequestContext>())
        let routeMethods = RouteMethods()
        router.add(middleware: MethodNotAllowedMiddleware<RelayRequestContext>(routes: routeMethods))
        HealthController(readiness: DatabaseReadinessCheck(client: client, warmup: warmup, catalog: catalog, entrupy: entrupy,
                                                            feedLag: feedLag, logger: logger),
                         registry: registry)
            .addRoutes(to: router)
        routeMethods.set(from: router)
        return Application(
            router: router,
            // Like the main server: an idle or dripping client is dropped, and connections are capped.
            server: .http1(configuration: .init(idleTimeout: TimeAmount(idleTimeout))),
            configuration: .init(address: .hostname(host, port: port), serverName: nil,
                                 availableConnectionsDelegate: MaximumAvailableConnections(maxConnections)),
            logger: logger)
    }
}
