/// Thrown by `withDeadline` when the operation did not finish in time.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let limit: Duration
    public init(limit: Duration) { self.limit = limit }
    public var description: String { "operation did not finish within \(limit)" }
}

/// Runs `operation`, cancelling it and throwing `DeadlineExceeded` when it takes longer than
/// `limit`. Used wherever an answer must come in bounded time (a webhook waiting on a commit,
/// a database that stopped answering), so nothing hangs forever.
public func withDeadline<T: Sendable>(
    _ limit: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlineExceeded(limit: limit)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded(limit: limit) }
        return first
    }
}
