public import Foundation
public import RelayModel

/// A silence as the API shows it.
public struct APISilence: Encodable, Sendable {
    let id: Int64
    /// Null: any rule.
    @AlwaysPresent var rule: String?
    let matchers: JSONValue
    let author: String
    let reason: String
    /// `active`, `pending` (starts later) or `expired`.
    let status: String
    let startsAt: Date
    let expiresAt: Date
    let createdAt: Date
    /// When and by whom it was expired early; null otherwise.
    @AlwaysPresent var expiredAt: Date?
    @AlwaysPresent var expiredBy: String?

    enum CodingKeys: String, CodingKey {
        case id, rule, matchers, author, reason, status, startsAt = "starts_at", expiresAt = "expires_at", createdAt = "created_at"
        case expiredAt = "expired_at", expiredBy = "expired_by"
    }

    public init(_ silence: Silence, now: Date = Date()) {
        id = silence.id
        rule = silence.rule
        matchers = silence.matchers.jsonValue
        author = silence.author
        reason = silence.reason
        status = silence.status(at: now)
        startsAt = silence.startsAt
        expiresAt = silence.expiresAt
        createdAt = silence.createdAt
        expiredAt = silence.expiredAt
        expiredBy = silence.expiredBy
    }
}

/// `GET /v1/silences`'s body.
struct APISilenceList: Encodable, Sendable {
    let silences: [APISilence]
}
