import ArgumentParser
import Foundation

/// What `config check` found: a line per check as it goes, and the exit status at the end.
struct CheckReport {
    private(set) var failed = false

    mutating func pass(_ what: String, _ detail: String) {
        line("ok", what, detail)
    }

    mutating func fail(_ what: String, _ detail: String) {
        failed = true
        line("FAILED", what, detail)
    }

    func warn(_ detail: String) {
        line("warning", "settings", detail)
    }

    /// Exits: 0 when every check passed, 1 otherwise.
    func finish() -> Never {
        Foundation.exit(failed ? 1 : 0)
    }

    private func line(_ status: String, _ what: String, _ detail: String) {
        let text = status.padding(toLength: 8, withPad: " ", startingAt: 0) + what.padding(toLength: 10, withPad: " ", startingAt: 0) + detail
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
