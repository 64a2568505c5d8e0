import RelayModel

/// How one run ended, as the queue records it: the run (job ID and attempt) and its outcome.
/// A `retry` without a delay runs again at once.
public struct JobFinish: Sendable, Equatable {
    public var id: Int64
    public var attempt: Int
    public var outcome: JobOutcome

    public init(id: Int64, attempt: Int, outcome: JobOutcome) {
        self.id = id
        self.attempt = attempt
        self.outcome = outcome
    }

    /// The row the finishing statement reads: action, delay and error text.
    var columns: (action: String, delayMilliseconds: Int64, error: String) {
        switch outcome {
        case .completed: ("complete", 0, "")
        case .snooze(let delay): ("snooze", max(0, delay.milliseconds), "")
        case .retry(let error, let delay): ("retry", max(0, delay?.milliseconds ?? 0), Self.clip(error))
        case .discard(let error): ("discard", 0, Self.clip(error))
        }
    }

    /// Error text as stored in the job's history: no NUL (jsonb refuses it), at most 2,000 characters.
    static func clip(_ error: String) -> String {
        error.isEmpty ? "failed" : StoredText.clean(error, maxCharacters: 2000)
    }
}
