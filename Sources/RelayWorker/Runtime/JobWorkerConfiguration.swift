import Foundation

/// How a worker claims and holds jobs.
public struct JobWorkerConfiguration: Sendable {
    /// Identifies this worker in leases and error histories.
    public var workerID: String
    /// Jobs run at once by this worker.
    public var concurrency: Int
    /// How long a claim lasts without renewal; renewed every third of it while the job runs.
    public var lease: Duration
    /// Claim attempts happen at least this often even without NOTIFY.
    public var pollInterval: Duration
    /// How often expired leases are rescued, stats refreshed and old jobs pruned.
    public var maintenanceInterval: Duration
    public var pruneCompletedAfter: Duration
    public var pruneDeadAfter: Duration
    /// Backoff of failed jobs (attempt-based, jittered).
    public var backoffBase: Duration
    public var backoffCap: Duration

    public init(
        workerID: String = JobWorkerConfiguration.defaultWorkerID(),
        concurrency: Int = 16, lease: Duration = .seconds(30), pollInterval: Duration = .seconds(1),
        maintenanceInterval: Duration = .seconds(1), pruneCompletedAfter: Duration = .seconds(86_400),
        pruneDeadAfter: Duration = .seconds(30 * 86_400), backoffBase: Duration = .seconds(1), backoffCap: Duration = .seconds(3600)
    ) {
        self.workerID = workerID
        self.concurrency = concurrency
        self.lease = lease
        self.pollInterval = pollInterval
        self.maintenanceInterval = maintenanceInterval
        self.pruneCompletedAfter = pruneCompletedAfter
        self.pruneDeadAfter = pruneDeadAfter
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
    }

    public static func defaultWorkerID() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
