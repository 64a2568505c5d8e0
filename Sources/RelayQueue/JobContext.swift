import Logging

/// What a handler knows of the run it is in.
public struct JobContext: Sendable {
    public var id: Int64
    /// This run, from 1.
    public var attempt: Int
    public var maxAttempts: Int
    /// Earlier runs whose worker died while running them.
    public var crashes: Int
    /// Carries the job's ID and kind as metadata.
    public var logger: Logger

    public var isLastAttempt: Bool { attempt >= maxAttempts }
}
