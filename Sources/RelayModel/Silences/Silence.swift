public import Foundation

/// A silence: the deliveries whose transition it matches are recorded `silenced` and never sent
/// (unless redriven) from `startsAt` until `expiresAt`, or until someone expires it early. Kept
/// after it ends, with who made it and why, and who expired it.
public struct Silence: Sendable, Equatable {
    public var id: Int64
    /// The rule whose deliveries it stops; nil: any rule.
    public var rule: String?
    public var matchers: SilenceMatchers
    public var author: String
    public var reason: String
    public var startsAt: Date
    public var expiresAt: Date
    public var createdAt: Date
    /// When it was expired early, and by whom.
    public var expiredAt: Date?
    public var expiredBy: String?

    public init(id: Int64, rule: String?, matchers: SilenceMatchers, author: String, reason: String, startsAt: Date, expiresAt: Date,
                createdAt: Date, expiredAt: Date? = nil, expiredBy: String? = nil) {
        self.id = id
        self.rule = rule
        self.matchers = matchers
        self.author = author
        self.reason = reason
        self.startsAt = startsAt
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.expiredAt = expiredAt
        self.expiredBy = expiredBy
    }

    /// Whether it stops deliveries at `now`: started, not yet expired, not expired early.
    public func isActive(at now: Date) -> Bool {
        expiredAt == nil && startsAt <= now && now < expiresAt
    }

    /// `active`, `pending` (starts later) or `expired`, as lists show it.
    public func status(at now: Date) -> String {
        if expiredAt != nil || now >= expiresAt { return "expired" }
        return startsAt > now ? "pending" : "active"
    }

    /// Whether the rule and transition alone allow a match: the cheap first test.
    public func matches(rule: String, transition: String) -> Bool {
        (self.rule == nil || self.rule == rule) && matchers.matches(transition: transition)
    }

    /// Whether it stops a delivery of `rule` for `transition` about `item` (nil: operational).
    public func matches(rule: String, transition: String, item: EntrupyItem?) -> Bool {
        (self.rule == nil || self.rule == rule) && matchers.matches(transition: transition, item: item)
    }
}
