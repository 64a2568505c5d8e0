public import Hummingbird

/// The body of `/readyz`: whether the relay can do its job, and each check's word on it.
public struct ReadinessReport: ResponseEncodable, Sendable, Equatable {
    public var ready: Bool
    public var checks: [String: String]
    /// The release answering (`RelayRelease.version`), on the operations port only.
    public var version: String?

    public init(ready: Bool, checks: [String: String], version: String? = nil) {
        self.ready = ready
        self.checks = checks
        self.version = version
    }
}

/// Answers `/readyz`. The app wires one that asks the database.
public protocol ReadinessCheck: Sendable {
    func check() async -> ReadinessReport
}
