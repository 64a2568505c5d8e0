public import EntrupyAPI
import Logging
public import PostgresNIO
import RelayModel
import RelayRuntime
import RelayDatabase
public import RelayHTTP
public import RelayStore

/// Ready when the database answers within a second and every migration this build knows
/// has been applied (a replica started before `migrate` ran is not ready), and once the
/// connections it warms at start are open (`PoolWarmup`, or it gave up on them). Entrupy's health
/// (the last call of the health route) is reported as its own check under `entrupy`, but never makes
/// the relay unready: while Entrupy is down the receiver must keep storing webhooks. Nor does the
/// change feed's lag (`ChangeFeedLagMonitor`), reported under `change_feed`.
public struct DatabaseReadinessCheck: ReadinessCheck {
    let client: PostgresClient
    let warmup: PoolWarmup?
    let catalog: MigrationCatalog
    let entrupy: EntrupyHealthMonitor?
    let feedLag: ChangeFeedLagMonitor?
    let logger: Logger

    public init(client: PostgresClient, warmup: PoolWarmup? = nil, catalog: MigrationCatalog,
                entrupy: EntrupyHealthMonitor? = nil, feedLag: ChangeFeedLagMonitor? = nil, logger: Logger) {
        self.client = client
        self.warmup = warmup
        self.catalog = catalog
        self.entrupy = entrupy
        self.feedLag = feedLag
        self.logger = logger
    }

    public func check() async -> ReadinessReport {
        var report: ReadinessReport
        if let warmup, !warmup.status.isSettled {
            // The warm-up holds the pool's connections: a database check now would only wait for one.
            report = ReadinessReport(ready: false, checks: ["database": "warming"])
        } else {
            report = await checkDatabase()
        }
        if let warmup { report.checks["database_pool"] = warmup.status.summary }
        report.checks["entrupy"] = entrupy?.current.summary ?? "not configured: no ENTRUPY_RELAY_ENTRUPY_API_TOKEN"
        if let feedLag { report.checks["change_feed"] = feedLag.summary }
        return report
    }

    func checkDatabase() async -> ReadinessReport {
        let migrator = Migrator(client: client, logger: logger)
        do {
            let applied = try await withDeadline(.seconds(1)) { try await migrator.applied() }
            let missing = Set(catalog.migrations.map(\.version)).subtracting(applied.map(\.version))
            if missing.isEmpty {
                return ReadinessReport(ready: true, checks: ["database": "ok", "migrations": "ok"])
            }
            return ReadinessReport(ready: false, checks: [
                "database": "ok",
                "migrations": "pending: \(missing.sorted().map(String.init).joined(separator: ", ")); run entrupy-relay migrate",
            ])
        } catch {
            logger.warning("readiness: database check failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            return ReadinessReport(ready: false, checks: ["database": "unreachable"])
        }
    }
}
