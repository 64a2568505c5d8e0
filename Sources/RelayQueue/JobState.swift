import PostgresNIO
public import RelayModel
public import RelayDatabase

/// A job's life: `available` → `running` → `completed`, or back to `retryable` (scheduled
/// later) after a failure or a snooze, or `dead` once its attempts or crashes are spent.
/// Bound to SQL as its raw text, so a state the code does not know fails loudly on decoding
/// instead of being coerced.
public enum JobState: String, Sendable, CaseIterable, PostgresCodable, SQLLiteral {
    case available, running, retryable, completed, dead

    /// The states of a finished job as SQL literals (`'completed', 'dead'`), for the `ON CONFLICT`
    /// clause that names the partial unique index on unfinished jobs' keys.
    public static let finishedSQL = [JobState.completed, .dead].map(\.sqlLiteral).joined(separator: ", ")

    /// States a worker may claim from.
    public static let claimable: [JobState] = [.available, .retryable]
    /// States a job never leaves by itself.
    public static let finished: [JobState] = [.completed, .dead]
}
