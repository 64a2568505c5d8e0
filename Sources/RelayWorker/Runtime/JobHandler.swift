import RelayStore

/// Runs one kind of job. Throwing counts as `.retry` with backoff; the worker records the error.
public protocol JobHandler: Sendable {
    var kind: String { get }
    func run(_ job: ClaimedJob) async throws -> JobOutcome
}
