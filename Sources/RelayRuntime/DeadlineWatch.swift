import AsyncAlgorithms
public import Synchronization

/// `withDeadline` for many short operations at once: one timer (`run()`, a loop that checks
/// every `resolution`) instead of a timer task per operation. Each operation still runs in a
/// task of its own, so its caller gets `DeadlineExceeded` on time even when the operation
/// ignores cancellation; the deadline is kept to within `resolution`.
///
/// Made for the job worker, which runs every job under a long deadline (minutes): a timer task
/// per run, armed and cancelled, was about a tenth of a no-op job's cost.
public final class DeadlineWatch: Sendable {
    @usableFromInline
    struct Watched: Sendable {
        @usableFromInline let deadline: ContinuousClock.Instant
        @usableFromInline let limit: Duration
        @usableFromInline let expire: @Sendable (DeadlineExceeded) -> Void

        @inlinable
        init(deadline: ContinuousClock.Instant, limit: Duration, expire: @escaping @Sendable (DeadlineExceeded) -> Void) {
            self.deadline = deadline
            self.limit = limit
            self.expire = expire
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var next: UInt64 = 0
        @usableFromInline var watched: [UInt64: Watched] = [:]

        @inlinable init() {}
    }

    @usableFromInline let state = Mutex(State())
    public let resolution: Duration

    public init(resolution: Duration = .seconds(1)) {
        self.resolution = resolution
    }

    /// Operations under watch now.
    public var count: Int { state.withLock { $0.watched.count } }

    /// Runs `operation` and returns its result, or throws `DeadlineExceeded` once `limit` has
    /// passed (seen by the next check of `run()`), or `CancellationError` when the caller is
    /// cancelled; whichever comes first. A late operation is cancelled and left to finish on
    /// its own; its result is dropped. Inlinable so the caller's module specialises it.
    @inlinable
    public func watch<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = DeadlineRace<T>()
        let token = state.withLock { state -> UInt64 in
            state.next &+= 1
            state.watched[state.next] = Watched(deadline: .now + limit, limit: limit) { race.finish(.failure($0)) }
            return state.next
        }
        defer { _ = state.withLock { $0.watched.removeValue(forKey: token) } }
        return try await race.run(operation) { _ in nil }
    }

    /// Ends every watched operation whose deadline has passed by `now`; returns how many.
    @discardableResult
    public func expire(now: ContinuousClock.Instant = .now) -> Int {
        let late = state.withLock { state -> [Watched] in
            let late = state.watched.filter { $0.value.deadline <= now }
            for key in late.keys { state.watched[key] = nil }
            return Array(late.values)
        }
        for watched in late { watched.expire(DeadlineExceeded(limit: watched.limit)) }
        return late.count
    }

    /// Checks the deadlines every `resolution` until the task is cancelled. Operations still
    /// watched then keep running until they end or their caller is cancelled.
    public func run() async {
        for await _ in AsyncTimerSequence(interval: resolution, clock: .continuous) {
            expire()
        }
    }
}
