/// A job's life: `available` → `running` → `completed`, or back to `retryable` (scheduled
/// later) after a failure, or `dead` once its attempts are spent.
public enum JobState: String, Sendable, Codable, CaseIterable {
    case available, running, retryable, completed, dead
}
