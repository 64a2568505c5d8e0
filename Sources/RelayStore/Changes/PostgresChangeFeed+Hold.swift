import PostgresNIO

extension PostgresChangeFeed {
    /// What holds the feed back now: the oldest running transaction of the cluster and the
    /// session running it (`pg_stat_activity` shows every session's transaction ID to any role,
    /// its start and state only to the role's own and to `pg_read_all_stats`).
    public func hold() async throws -> ChangeFeedHold {
        let rows = try await client.query("""
            WITH snapshot AS (SELECT pg_current_snapshot() AS s)
            SELECT pg_snapshot_xmin(snapshot.s)::text, pg_snapshot_xmax(snapshot.s)::text,
                   extract(epoch FROM clock_timestamp() - oldest.xact_start)::float8, oldest.pid, oldest.usename::text,
                   oldest.application_name, oldest.state
            FROM snapshot LEFT JOIN LATERAL (
                SELECT xact_start, pid, usename, application_name, state FROM pg_stat_activity
                WHERE backend_xid IS NOT NULL ORDER BY age(backend_xid) DESC LIMIT 1) oldest ON true
            """, logger: logger)
        for try await (xmin, xmax, age, pid, user, application, state)
            in rows.decode((String, String, Double?, Int?, String?, String?, String?).self) {
            guard let oldest = UInt64(xmin), let next = UInt64(xmax) else { throw UnreadableTransaction(text: xmin + " " + xmax) }
            return ChangeFeedHold(oldest: oldest, next: next, age: age.map { max(0, $0) }, pid: pid, user: user,
                                  application: application, state: state)
        }
        throw UnreadableTransaction(text: "no snapshot")
    }
}
