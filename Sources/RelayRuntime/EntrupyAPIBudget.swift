/// The organisation's API budget (about 10 requests per second per token, contract section
/// 2). The relay keeps it in PostgreSQL so every replica draws from one bucket; `RateBudget`
/// (one process) serves tests and tools that have no database.
public protocol EntrupyAPIBudget: Sendable {
    /// Waits until a request of this priority may be sent.
    func acquire(_ priority: APIPriority) async throws
    /// Stops every caller (of every replica) until `duration` has passed: a 429's `Retry-After`.
    func pauseCallers(for duration: Duration) async
    /// How long callers must still wait after a 429, or nil when not paused.
    func remainingPause() async -> Duration?
}

/// A budget could not be consulted (its database is unreachable, say); the message is safe to log.
public struct APIBudgetUnavailable: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension RateBudget: EntrupyAPIBudget {
    public func acquire(_ priority: APIPriority) async throws {
        try await acquire()
    }

    public func pauseCallers(for duration: Duration) async {
        pause(for: duration)
    }

    public func remainingPause() async -> Duration? {
        pausedFor
    }
}
