public import Foundation

/// A job as `jobs list` shows it.
public struct JobRecord: Sendable, Equatable {
    public var id: Int64
    public var kind: String
    /// The arguments as stored (a JSON object).
    public var args: String
    public var state: JobState
    public var attempt: Int
    public var maxAttempts: Int
    public var crashes: Int
    public var scheduledAt: Date
    public var createdAt: Date
    public var finishedAt: Date?
    public var leasedBy: String?
    public var uniqueKey: String?
    public var lastError: String?
    public var errorCount: Int
}
