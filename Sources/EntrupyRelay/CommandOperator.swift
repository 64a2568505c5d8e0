import Foundation
import RelayModel

/// Who a command run on this machine acts as, for the records that name who did something
/// (a target's `disabled_by` and its transition's `by`, a bulk action's `requested_by`):
/// `cli (USER)`, the login from the environment, printable and at most 64 characters.
enum CommandOperator {
    static var name: String {
        let user = ProcessInfo.processInfo.environment["USER"].map { TerminalText.printable(String($0.prefix(64))) }
        return "cli (\(user.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown user"))"
    }
}
