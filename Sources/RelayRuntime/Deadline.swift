public import Synchronization

/// Thrown by `withDeadline` when the operation did not finish in time.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let limit: Duration
    public init(limit: Duration) { self.limit = limit }
    public var description: String { "operation did not finish within \(limit)" }
}

/// Runs `operation` and returns its result, or throws `DeadlineExceeded` once `limit` has
/// passed, whichever comes first. Unlike a task group, this returns on time even when the
/// operation ignores cancellation (a query on a connection that went silent): the operation
/// is cancelled and left to finish on its own, and its late result is dropped. Used wherever
/// an answer must come in bounded time, so nothing hangs forever.
public func withDeadline<T: Sendable>(
    _ limit: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await DeadlineRace<T>().run(operation) { race in
        Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { race.finish(.failure(DeadlineExceeded(limit: limit))) }
        }
    }
}

/// The first of operation, timer (its own, or a `DeadlineWatch`'s) and cancellation to finish
/// resumes the caller; the others are cancelled and ignored. Inlinable, like
/// `DeadlineWatch.watch`, so a caller in another module gets a version specialised to its
/// result type: unspecialised, every run looked up this class's and its state's metadata.
@usableFromInline
final class DeadlineRace<T: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var continuation: CheckedContinuation<T, any Error>?
        @usableFromInline var early: Result<T, any Error>?
        @usableFromInline var work: Task<Void, Never>?
        @usableFromInline var timer: Task<Void, Never>?
        @usableFromInline var done = false

        @inlinable init() {}
    }
    @usableFromInline let state = Mutex(State())

    @inlinable init() {}

    /// Runs `operation` in a task of its own and returns the first of its result, the timer's
    /// expiry and the caller's cancellation. `timer` arms this race's own timer; nil when
    /// another keeps the time (a `DeadlineWatch`, which calls `finish`).
    @inlinable
    func run(_ operation: @escaping @Sendable () async throws -> T,
             timer: (DeadlineRace<T>) -> Task<Void, Never>?) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                start(continuation)
                let work = Task {
                    do { self.finish(.success(try await operation())) } catch { self.finish(.failure(error)) }
                }
                attach(work: work, timer: timer(self))
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    @inlinable
    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    @inlinable
    func attach(work: Task<Void, Never>, timer: Task<Void, Never>? = nil) {
        let finished = state.withLock { state -> Bool in
            if state.done { return true }
            state.work = work
            state.timer = timer
            return false
        }
        if finished {
            work.cancel()
            timer?.cancel()
        }
    }

    @inlinable
    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) in
            guard !state.done else { return (nil, nil, nil) }
            state.done = true
            defer {
                state.continuation = nil
                state.work = nil
                state.timer = nil
            }
            if state.continuation == nil { state.early = result }
            return (state.continuation, state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
