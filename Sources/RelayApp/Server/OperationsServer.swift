import Hummingbird
import Logging
import PostgresNIO
import Prometheus
import RelayHTTP
import RelayStore

/// `/healthz`, `/readyz` and `/metrics` on their own port, for processes that serve nothing
/// else (`entrupy-relay worker --port P`), so every replica can be probed and scraped.
public enum OperationsServer {
    public static func make(host: String, port: Int, client: PostgresClient, catalog: MigrationCatalog,
                            registry: PrometheusCollectorRegistry, logger: Logger) -> Application<RouterResponder<RelayRequestContext>> {
        let router = Router(context: RelayRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: JSONErrorMiddleware<RelayRequestContext>())
        HealthController(readiness: DatabaseReadinessCheck(client: client, catalog: catalog, logger: logger), registry: registry)
            .addRoutes(to: router)
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil), logger: logger)
    }
}
