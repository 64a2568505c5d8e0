public import Hummingbird

/// The body of `/readyz`: whether the relay can do its job, and each check's word on it.
public struct ReadinessReport: ResponseEncodable, Sendable, Equatable {
    public var ready: Bool
    public var checks: [String: String]

    public init(ready: Bool, checks: [String: String]) {
        self.ready = ready
        self.checks = checks
    }
}

/// Answers `/readyz`. The app wires one that asks the database.
public protocol ReadinessCheck: Sendable {
    func check() async -> ReadinessReport
}
