import Logging
import PostgresNIO

extension PostgresJobQueue {
    /// What a rescue pass did.
    public struct Rescue: Sendable, Equatable {
        /// Jobs made claimable again.
        public var retried: Int
        /// Jobs whose worker died while running them `maxCrashes` times (or whose attempts were spent): never handed out again.
        public var dead: Int

        public init(retried: Int, dead: Int) {
            self.retried = retried
            self.dead = dead
        }
    }

    /// Jobs whose worker stopped renewing the lease (it died, or lost the database) become
    /// claimable again at once, and each such run is counted as a crash: a job that has
    /// taken down its worker `maxCrashes` times goes `dead` instead of killing the next one.
    @discardableResult
    public func rescueExpiredLeases(maxCrashes: Int) async throws -> Rescue {
        let limit = max(1, maxCrashes)
        let rows = try await client.query("""
            WITH rescued AS (
                UPDATE jobs SET
                    crashes = crashes + 1,
                    state = CASE WHEN crashes + 1 >= \(limit) OR attempt >= max_attempts THEN \(JobState.dead) ELSE \(JobState.retryable) END,
                    finished_at = CASE WHEN crashes + 1 >= \(limit) OR attempt >= max_attempts THEN now() END,
                    scheduled_at = now(), lease_expires_at = NULL,
                    errors = errors || jsonb_build_array(jsonb_build_object('at', now(), 'attempt', attempt, 'worker', leased_by,
                        'error', CASE WHEN crashes + 1 >= \(limit)
                                      THEN 'worker died while running it ' || (crashes + 1) || ' times'
                                      ELSE 'lease expired: the worker stopped renewing it' END))
                WHERE state = \(JobState.running) AND lease_expires_at < now()
                RETURNING state),
            counted AS (
                SELECT count(*) FILTER (WHERE state = \(JobState.retryable))::int AS retried,
                       count(*) FILTER (WHERE state = \(JobState.dead))::int AS dead FROM rescued),
            woken AS (SELECT pg_notify(\(Self.channel), '') FROM counted WHERE retried > 0)
            SELECT retried, dead FROM counted, (SELECT count(*) FROM woken) AS notified
            """, logger: logger)
        for try await (retried, dead) in rows.decode((Int, Int).self) { return Rescue(retried: retried, dead: dead) }
        return Rescue(retried: 0, dead: 0)
    }

    /// Deletes finished jobs older than the retention ages, in batches of at most `batch` rows
    /// (each its own short transaction, found through the partial index on finished jobs), so
    /// that a busy queue's minute of completed jobs never becomes one long delete; at most
    /// `maxBatches` a call, so that a backlog (a shorter setting, a long outage) is taken a
    /// slice a minute and the maintenance loop it runs in still rescues leases meanwhile.
    @discardableResult
    public func prune(completedOlderThan completed: Duration, deadOlderThan dead: Duration, batch: Int = 5_000,
                      maxBatches: Int = 20) async throws -> Int {
        var total = 0
        for _ in 0..<max(1, maxBatches) {
            let rows = try await client.query("""
                WITH gone AS (
                    DELETE FROM jobs WHERE id IN (
                        SELECT id FROM jobs
                        WHERE state IN (\(JobState.completed), \(JobState.dead))
                          AND finished_at < now() - \(min(completed, dead).milliseconds) * interval '1 millisecond'
                          AND (state = \(JobState.dead) OR finished_at < now() - \(completed.milliseconds) * interval '1 millisecond')
                          AND (state = \(JobState.completed) OR finished_at < now() - \(dead.milliseconds) * interval '1 millisecond')
                        LIMIT \(batch))
                    RETURNING 1)
                SELECT count(*)::int FROM gone
                """, logger: logger)
            var deleted = 0
            for try await count in rows.decode(Int.self) { deleted = count }
            total += deleted
            if deleted < batch || Task.isCancelled { break }
        }
        return total
    }

    /// Deletes every job of `kind`, whatever its state (a benchmark starts from none); returns
    /// how many. Not for kinds that workers are running.
    @discardableResult
    public func purge(kind: String) async throws -> Int {
        let rows = try await client.query("""
            WITH gone AS (DELETE FROM jobs WHERE kind = \(kind) RETURNING 1) SELECT count(*)::int FROM gone
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Reclaims the jobs table's dead rows (VACUUM), as autovacuum does in service: a
    /// benchmark starts each run from a table without the last run's dead rows.
    public func vacuum() async throws {
        try await client.query("VACUUM jobs", logger: logger)
    }

    /// Refreshes the jobs table's statistics (ANALYZE), once a benchmark has enqueued its jobs.
    public func analyze() async throws {
        try await client.query("ANALYZE jobs", logger: logger)
    }

    /// Whether a job of `kind` is still waiting or running (a benchmark's "drained yet?"),
    /// read through the partial indexes on claimable and running jobs.
    public func hasUnfinished(kind: String) async throws -> Bool {
        let rows = try await client.query("""
            SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = \(kind) AND state = ANY(\(JobState.claimable.map(\.rawValue))::text[]))
                OR EXISTS (SELECT 1 FROM jobs WHERE kind = \(kind) AND state = \(JobState.running))
            """, logger: logger)
        for try await value in rows.decode(Bool.self) { return value }
        return false
    }

    public func stats() async throws -> QueueStats {
        let rows = try await client.query("""
            SELECT count(*) FILTER (WHERE state = ANY(\(JobState.claimable.map(\.rawValue))::text[]) AND scheduled_at <= now())::int,
                   coalesce(extract(epoch FROM now() - min(scheduled_at) FILTER (
                       WHERE state = ANY(\(JobState.claimable.map(\.rawValue))::text[]) AND scheduled_at <= now())), 0)::float8,
                   count(*) FILTER (WHERE state = \(JobState.running))::int,
                   count(*) FILTER (WHERE state = \(JobState.dead))::int
            FROM jobs WHERE state = ANY(\([JobState.available, .retryable, .running, .dead].map(\.rawValue))::text[])
            """, logger: logger)
        for try await (available, oldest, running, dead) in rows.decode((Int, Double, Int, Int).self) {
            return QueueStats(available: available, oldestAvailableSeconds: oldest, running: running, dead: dead)
        }
        return QueueStats(available: 0, oldestAvailableSeconds: 0, running: 0, dead: 0)
    }
}
