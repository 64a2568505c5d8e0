import Foundation

/// One line of `entrupy-relay entrupy check`: an assumption the relay depends on, and whether
/// Entrupy's answers bear it out.
public struct EntrupyFinding: Sendable, Equatable {
    public enum Verdict: String, Sendable {
        case ok
        case differs
        /// Not tried (a check it depends on failed, or nothing was named to try it with).
        case skipped
    }

    public var name: String
    public var verdict: Verdict
    public var detail: String

    public init(_ name: String, _ verdict: Verdict, _ detail: String) {
        self.name = name
        self.verdict = verdict
        self.detail = detail
    }

    /// `ok       token        accepted …`
    public var line: String {
        verdict.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + name.padding(toLength: 16, withPad: " ", startingAt: 0) + detail
    }
}
