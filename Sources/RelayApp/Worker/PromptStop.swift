import Logging
import ServiceLifecycle

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
        let ended = await withTaskCancellationHandler {
            await withTaskGroup(of: Bool.self) { group -> Bool in
                group.addTask { _ = await work.result; return true }
                group.addTask {
                    try? await gracefulShutdown()
                    try? await Task.sleep(for: within)
                    return false
                }
                let first = await group.next() ?? true
                group.cancelAll()
                return first
            }
        } onCancel: {
            work.cancel()
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
