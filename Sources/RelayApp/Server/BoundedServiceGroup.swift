import Foundation
public import Logging
import RelayRuntime
public import ServiceLifecycle
import UnixSignals

/// Runs a process's services until SIGTERM or SIGINT, then shuts them down gracefully within
/// `grace`: servers stop accepting, workers stop claiming, what is under way finishes. Past
/// `grace` the group cancels whatever is left; should even that not end it within a few
/// seconds (an await that ignores cancellation: a query on a connection the database dropped),
/// the process logs what happened and exits, so a shutdown never hangs.
///
/// What the services write through (the database pools) and the trace exporter are
/// `closingLast`: they run in an outer group around the services' own, so they close only once
/// every service has returned, whether it stopped in its turn or was cancelled when the grace
/// ran out. A flat group cancels every service at once when the grace runs out, pools included,
/// and a worker's last records then met a closed pool (issue 42).
public enum BoundedServiceGroup {
    /// How long cancellation may take after the grace period before the process exits.
    static let cancellationAllowance: Duration = .seconds(5)

    public static func run(_ services: [any Service], closingLast: [any Service] = [], grace: Duration, logger: Logger) async throws {
        try await make(services, closingLast: closingLast, grace: grace, logger: logger).run()
    }

    /// The group `run` runs; `signals` and `onOverrun` are for tests (which trigger the
    /// shutdown themselves and must not exit).
    static func make(_ services: [any Service], closingLast: [any Service] = [], grace: Duration, logger: Logger,
                     signals: [UnixSignal] = [.sigterm, .sigint], allowance: Duration = cancellationAllowance,
                     onOverrun: @escaping @Sendable () -> Void = { exit(1) }) -> ServiceGroup {
        // The services' own group: stopped in reverse order of the list, cancelled once `grace` has passed.
        var inner = ServiceGroupConfiguration(services: services.map { .init(service: $0) }, logger: logger)
        inner.maximumGracefulShutdownDuration = grace
        // The watchdog goes last: the group shuts services down in reverse order, so it hears
        // of the shutdown first, arms its timer and returns at once. Then the services' group,
        // then what they used.
        let watchdog = ShutdownWatchdog(limit: grace + allowance, logger: logger, onOverrun: onOverrun)
        let outer = ServiceGroupConfiguration(
            services: (closingLast + [ServiceGroup(configuration: inner), watchdog]).map { .init(service: $0) },
            gracefulShutdownSignals: signals,
            logger: logger
        )
        return ServiceGroup(configuration: outer)
    }
}
/// Waits for the group's graceful shutdown, then arms a timer outside Swift concurrency (no
/// cancellation or exhausted thread pool can stop it) that ends the process at `limit`.
struct ShutdownWatchdog: Service {
    let limit: Duration
    let logger: Logger
    let onOverrun: @Sendable () -> Void

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled without a graceful shutdown: the group is ending anyway
        }
        SystemdNotifier.notify("STOPPING=1")
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        let (logger, limit, onOverrun) = (self.logger, self.limit, self.onOverrun)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            logger.critical("shutdown did not finish within its grace period; exiting", metadata: ["limit": "\(limit)"])
            onOverrun()
        }
    }
}
