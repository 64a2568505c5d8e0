import Foundation
import RelayApp
import RelayModel
import RelayRules

extension TargetsCommand {
    /// `targets` with the rate limits of the rules file the worker reads
    /// (`ENTRUPY_RELAY_RULES_FILE`); a file that does not load is named on stderr and shows none.
    static func withRateLimits(_ targets: [TargetSummary], environment: CommandEnvironment) -> [TargetSummary] {
        do {
            return try WorkerAssembly.rulesStore(settings: environment.settings).current.withRateLimits(targets)
        } catch {
            FileHandle.standardError.write(Data("entrupy-relay: rate limits not shown: \(error)\n".utf8))
            return targets
        }
    }
}
