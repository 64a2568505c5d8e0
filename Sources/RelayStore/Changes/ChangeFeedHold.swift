/// What holds the change feed back at one moment: the oldest transaction still running in the
/// cluster (every transition written after it waits for it to end) and, where the relay's
/// role may see it, which session runs it and since when. Read by `PostgresChangeFeed.hold()`.
public struct ChangeFeedHold: Sendable, Equatable {
    /// `pg_snapshot_xmin`: the oldest transaction still running, or `next` when none is.
    public var oldest: UInt64
    /// `pg_snapshot_xmax`: the transaction ID the cluster gives next.
    public var next: UInt64
    /// Seconds since the oldest open transaction began; nil when the relay's role may not see
    /// it (another role's session without `pg_read_all_stats`) or none is open.
    public var age: Double?
    /// The session running it: its process ID, role and application, as far as they are visible.
    public var pid: Int?
    public var user: String?
    public var application: String?
    public var state: String?

    public init(oldest: UInt64, next: UInt64, age: Double? = nil, pid: Int? = nil, user: String? = nil,
                application: String? = nil, state: String? = nil) {
        self.oldest = oldest
        self.next = next
        self.age = age
        self.pid = pid
        self.user = user
        self.application = application
        self.state = state
    }

    /// Whether a transaction is running at all (one that has written, or asked for its ID).
    public var isHeld: Bool { oldest < next }

    /// "pid 812, user alice, application psql, idle in transaction", from what is visible.
    public var holder: String {
        let parts = [pid.map { "pid \($0)" }, user.map { "user \($0)" }, application.flatMap { $0.isEmpty ? nil : "application \($0)" }, state]
        let known = parts.compactMap { $0 }
        return known.isEmpty ? "a session the relay may not see" : known.joined(separator: ", ")
    }
}
