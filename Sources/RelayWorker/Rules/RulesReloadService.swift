public import Logging
import RelayRules
public import ServiceLifecycle
import UnixSignals

/// Reloads the rules file on SIGHUP. A file with problems is logged, problem by problem, and
/// the rules already in force stay.
public struct RulesReloadService: Service {
    let store: RulesStore
    let logger: Logger

    public init(store: RulesStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            do {
                let rules = try store.reload()
                logger.info("rules reloaded", metadata: ["file": "\(store.path ?? "-")", "rules": "\(rules.rules.count)"])
            } catch let error as RuleSetError {
                logger.error("rules file rejected; keeping the rules in force", metadata: [
                    "file": "\(store.path ?? "-")", "problems": "\(error.problems.map(\.description).joined(separator: "; "))",
                ])
            } catch {
                logger.error("rules reload failed; keeping the rules in force", metadata: ["error": "\(error)"])
            }
        }
    }
}
