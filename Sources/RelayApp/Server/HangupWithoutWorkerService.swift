import Logging
import ServiceLifecycle
import UnixSignals

/// `serve --no-worker` has no rules to reload, but docs/operations.md tells operators to send SIGHUP
/// after editing the rules file, and SIGHUP's default action ends the process (receiver and
/// all). This traps it and says where the rules are read instead.
struct HangupWithoutWorkerService: Service {
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            logger.notice("SIGHUP ignored: this process runs no worker, so it has no rules to reload; send it to the worker processes")
        }
    }
}
