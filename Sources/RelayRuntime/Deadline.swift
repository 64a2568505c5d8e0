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
    try await DeadlineWatch.shared.watch(limit, operation)
}

/// The first of operation, timer (a `DeadlineWatch`'s, which calls `finish`) and cancellation
/// to finish resumes the caller; the others are cancelled and ignored. Inlinable, like
/// `DeadlineWatch.watch`, so a caller in another module gets a version specialised to its
/// result type: unspecialised, every run looked up this class's and its state's metadata.
@usableFromInline
final class DeadlineRace<T: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var continuation: CheckedContinuation<T, any Error>?
        @usableFromInline var early: Result<T, any Error>?
        @usableFromInline var work: Task<Void, Never>?
        @usableFromInline var done = false

        @inlinable init() {}
    }
    @usableFromInline let state = Mutex(State())

    @inlinable init() {}

    /// Runs `operation` in a task of its own and returns the first of its result, the timer's
    /// expiry and the caller's cancellation.
    @inlinable
    func run(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                start(continuation)
                let work = Task {
                    do { self.finish(.success(try await operation())) } catch { self.finish(.failure(error)) }
                }
                attach(work: work)
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
    func attach(work: Task<Void, Never>) {
        let finished = state.withLock { state -> Bool in
            if state.done { return true }
            state.work = work
            return false
        }
        if finished { work.cancel() }
    }

    @inlinable
    func finish(_ result: Result<T, any Error>) {
        let (continuation, work) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            defer {
                state.continuation = nil
                state.work = nil
            }
            if state.continuation == nil { state.early = result }
            return (state.continuation, state.work)
        }
        work?.cancel()
        continuation?.resume(with: result)
    }
}
