import Foundation
import RelayModel
import RelayQueue

/// A job as `jobs list --json` prints it.
struct JobJSON: Encodable {
    let record: JobRecord

    enum CodingKeys: String, CodingKey {
        case id, kind, args, state, attempt, crashes
        case maxAttempts = "max_attempts"
        case scheduledAt = "scheduled_at"
        case createdAt = "created_at"
        case finishedAt = "finished_at"
        case leasedBy = "leased_by"
        case uniqueKey = "unique_key"
        case lastError = "last_error"
        case errorCount = "error_count"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(record.id, forKey: .id)
        try c.encode(record.kind, forKey: .kind)
        try c.encode(JSONValue(jsonText: record.args) ?? .null, forKey: .args)
        try c.encode(record.state.rawValue, forKey: .state)
        try c.encode(record.attempt, forKey: .attempt)
        try c.encode(record.maxAttempts, forKey: .maxAttempts)
        try c.encode(record.crashes, forKey: .crashes)
        try c.encode(record.scheduledAt, forKey: .scheduledAt)
        try c.encode(record.createdAt, forKey: .createdAt)
        try c.encode(record.finishedAt, forKey: .finishedAt)
        try c.encode(record.leasedBy, forKey: .leasedBy)
        try c.encode(record.uniqueKey, forKey: .uniqueKey)
        try c.encode(record.lastError, forKey: .lastError)
        try c.encode(record.errorCount, forKey: .errorCount)
    }
}
