import Logging
import ServiceLifecycle
import Synchronization

/// Runs a service whose work under way may be abandoned on shutdown (a sync pass, which the
/// next one resumes from its checkpoint), so it cannot hold the services stopped after it.
/// The service hears the graceful shutdown as usual; if it has not returned `within` that, it
/// is cancelled and left to end on its own (the pools close only after the whole group, see
/// `BoundedServiceGroup`), and this returns. Issue 42: a sync pass whose searches Entrupy
/// refused held a SIGTERM for the whole grace period, and the job worker behind it with it.
struct PromptStop: Service, CustomStringConvertible {
    let service: any Service
    let within: Duration
    let logger: Logger

    init(_ service: any Service, within: Duration, logger: Logger) {
        self.service = service
        self.within = within
        self.logger = logger
    }

    var description: String { "PromptStop(\(type(of: service)))" }

    func run() async throws {
        // An unstructured task inherits the task-local graceful shutdown, not cancellation.
        let work = Task { try await service.run() }
        let first = FirstOf()
        let ended = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                first.set(continuation)
                Task { _ = await work.result; first.resume(true) }
                Task {
                    try? await gracefulShutdown()
                    try? await Task.sleep(for: within)
                    first.resume(false)
                }
            }
        } onCancel: {
            first.resume(false)
        }
        guard ended else {
            logger.notice("stopping: left behind what did not stop in time", metadata: [
                "service": "\(type(of: service))", "within": "\(within)"])
            work.cancel()
            return
        }
        try await work.value
    }
}

/// Resumes a continuation once, with the first answer (a cancellation may come before it is set).
private final class FirstOf: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Bool, Never>?, early: Bool?)>((nil, nil))

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        let early = state.withLock { state -> Bool? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func resume(_ value: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.early == nil else { return nil }
            state.early = value
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
    }
}
