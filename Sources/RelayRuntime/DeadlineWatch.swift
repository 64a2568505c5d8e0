/// Deadlines for many operations at once, kept by `CoarseTimers` (one loop) instead of a timer
/// task per operation. Each operation still runs in a task of its own, so its caller gets
/// `DeadlineExceeded` on time even when the operation ignores cancellation; the deadline is
/// kept to within the timers' resolution.
///
/// Made for the job worker, which runs every job under a long deadline (minutes): a timer task
/// per run, armed and cancelled, was about a tenth of a no-op job's cost. `shared` serves
/// `withDeadline` the same way.
public final class DeadlineWatch: Sendable {
    /// The watch `withDeadline` uses: the process's shared timers, which tick only while an
    /// operation is watched.
    public static let shared = DeadlineWatch(timers: .shared)

    @usableFromInline let timers: CoarseTimers
    public var resolution: Duration { timers.resolution }

    /// A watch whose owner runs `run()`, checking every `resolution`.
    public init(resolution: Duration = .seconds(1)) {
        self.timers = CoarseTimers(resolution: resolution)
    }

    init(timers: CoarseTimers) {
        self.timers = timers
    }

    /// Operations under watch now.
    public var count: Int { timers.count }

    /// Runs `operation` and returns its result, or throws `DeadlineExceeded` once `limit` has
    /// passed (seen by the next check of the timers), or `CancellationError` when the caller is
    /// cancelled; whichever comes first. A late operation is cancelled and left to finish on
    /// its own; its result is dropped. Inlinable so the caller's module specialises it.
    @inlinable
    public func watch<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = DeadlineRace<T>()
        let token = timers.arm(after: limit) { race.finish(.failure(DeadlineExceeded(limit: limit))) }
        defer { timers.disarm(token) }
        return try await race.run(operation)
    }

    /// Ends every watched operation whose deadline has passed by `now`; returns how many.
    @discardableResult
    public func expire(now: ContinuousClock.Instant = .now) -> Int {
        timers.fireDue(now: now)
    }

    /// Checks the deadlines every `resolution` until the task is cancelled. Operations still
    /// watched then keep running until they end or their caller is cancelled.
    public func run() async {
        await timers.run()
    }
}
