import Foundation
import Logging
import ServiceLifecycle

/// Runs a process's services until SIGTERM or SIGINT, then shuts them down gracefully within
/// `grace`: servers stop accepting, workers stop claiming, what is under way finishes. Past
/// `grace` the group cancels whatever is left; should even that not end it within a few
/// seconds, the process logs what happened and exits, so a shutdown never hangs (a drip
/// request or a silent peer cannot keep it alive).
public enum BoundedServiceGroup {
    /// How long cancellation may take after the grace period before the process exits.
    static let cancellationAllowance: Duration = .seconds(5)

    public static func run(_ services: [any Service], grace: Duration, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        configuration.maximumGracefulShutdownDuration = grace
        let group = ServiceGroup(configuration: configuration)
        try await withGracefulShutdownHandler {
            try await group.run()
        } onGracefulShutdown: {
            armWatchdog(after: grace + cancellationAllowance, logger: logger)
        }
    }

    /// A timer outside Swift concurrency: cancellation of the group's tasks cannot stop it.
    private static func armWatchdog(after limit: Duration, logger: Logger) {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            logger.critical("shutdown did not finish within its grace period; exiting", metadata: ["limit": "\(limit)"])
            exit(1)
        }
    }
}
