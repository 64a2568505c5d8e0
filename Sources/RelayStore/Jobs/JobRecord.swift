import Foundation
import RelayCore

/// A job as `jobs list` shows it.
public struct JobRecord: Sendable, Equatable, Encodable {
    public var id: Int64
    public var kind: String
    public var args: JSONValue
    public var state: String
    public var attempt: Int
    public var maxAttempts: Int
    public var scheduledAt: Date
    public var createdAt: Date
    public var finishedAt: Date?
    public var leasedBy: String?
    public var uniqueKey: String?
    public var lastError: String?
    public var errorCount: Int

    enum CodingKeys: String, CodingKey {
        case id, kind, args, state, attempt
        case maxAttempts = "max_attempts"
        case scheduledAt = "scheduled_at"
        case createdAt = "created_at"
        case finishedAt = "finished_at"
        case leasedBy = "leased_by"
        case uniqueKey = "unique_key"
        case lastError = "last_error"
        case errorCount = "error_count"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(args, forKey: .args)
        try c.encode(state, forKey: .state)
        try c.encode(attempt, forKey: .attempt)
        try c.encode(maxAttempts, forKey: .maxAttempts)
        try c.encode(scheduledAt, forKey: .scheduledAt)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(finishedAt, forKey: .finishedAt)
        try c.encode(leasedBy, forKey: .leasedBy)
        try c.encode(uniqueKey, forKey: .uniqueKey)
        try c.encode(lastError, forKey: .lastError)
        try c.encode(errorCount, forKey: .errorCount)
    }
}
