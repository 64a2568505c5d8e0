import Foundation

/// How a worker claims, holds and finishes jobs.
public struct JobWorkerConfiguration: Sendable {
    /// Identifies this worker in leases and error histories.
    public var workerID: String
    /// Jobs run at once by this worker.
    public var concurrency: Int
    /// How long a claim lasts without renewal; one heartbeat renews every held lease each third of it.
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
    /// Runs whose worker died (lease expired) before a job is `dead` instead of handed out again.
    public var maxCrashes: Int
    /// Longest run of one job: past it the run counts as failed and the job is retried. Every
    /// handler bounds its own I/O, but an await that never returns (a database connection lost
    /// mid-query, say) must not hold a job, and its lease, for ever.
    public var jobTimeout: Duration
    /// On graceful shutdown, how long running jobs may take to finish before they are
    /// cancelled and released (run again soon, by any worker, without spending an attempt):
    /// a shutdown must not wait on Entrupy or a partner that does not answer.
    public var shutdownDrain: Duration = .seconds(5)
    /// Then, how long the last outcomes may take to be recorded: a database that does not take
    /// them by then (down, or gone with the process's pools) cannot hold the shutdown; what is
    /// dropped is logged, and the jobs run again once their leases expire.
    public var shutdownFlush: Duration = .seconds(5)

    public init(
        workerID: String = JobWorkerConfiguration.defaultWorkerID(),
        concurrency: Int = 16, lease: Duration = .seconds(30), pollInterval: Duration = .seconds(1),
        maintenanceInterval: Duration = .seconds(1), pruneCompletedAfter: Duration = .seconds(86_400),
        pruneDeadAfter: Duration = .seconds(30 * 86_400), backoffBase: Duration = .seconds(1), backoffCap: Duration = .seconds(3600),
        maxCrashes: Int = 3, jobTimeout: Duration = .seconds(120)
    ) {
        self.workerID = workerID
        self.concurrency = max(1, concurrency)
        self.lease = lease
        self.pollInterval = pollInterval
        self.maintenanceInterval = maintenanceInterval
        self.pruneCompletedAfter = pruneCompletedAfter
        self.pruneDeadAfter = pruneDeadAfter
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.maxCrashes = max(1, maxCrashes)
        self.jobTimeout = jobTimeout
    }

    /// Under load a worker waits until this many slots are free before it claims again, so
    /// a claim takes a batch instead of one job at a time (a NOTIFY, an idle worker or the poll
    /// interval claims for any free slot); and it records outcomes in batches of this size, or
    /// whatever finished within a couple of milliseconds.
    var claimBatch: Int { max(1, concurrency / 2) }

    /// Finished runs waiting to be recorded, beyond which no more jobs are claimed.
    var maxUnrecorded: Int { concurrency * 2 }

    public static func defaultWorkerID() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
