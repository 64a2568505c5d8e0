public import RelayModel

/// The loaded rules file: rules in order, and the signing secrets their webhooks use, by
/// fingerprint, so a delivery stored under an older file still finds its key.
public struct RuleSet: Sendable {
    public var rules: [Rule]
    /// The `targets:` list's rate limits, by the target's key (an origin, or `smtp`): `rateLimit(of:)`.
    public var rateLimits: [String: TargetRateLimit]

    public static let empty = RuleSet(rules: [])

    public init(rules: [Rule], rateLimits: [String: TargetRateLimit] = [:]) {
        self.rules = rules
        self.rateLimits = rateLimits
    }

    /// The rules that fire for a subject: tried in order; a match stops unless it says `continue`.
    public func matching(_ subject: NotificationSubject) -> [Rule] {
        matching(item: subject.item, transition: subject.transition.kind)
    }

    /// `matching(_:)` from what conditions read, without a subject's details and template values.
    public func matching(item: EntrupyItem, transition: TransitionKind) -> [Rule] {
        var matched: [Rule] = []
        for rule in rules where rule.condition.matches(item: item, transition: transition) {
            matched.append(rule)
            if !rule.continues { break }
        }
        return matched
    }

    /// The rules that fire for an operational transition, in the same order and `continue` semantics.
    public func matching(_ kind: OperationalKind) -> [Rule] {
        var matched: [Rule] = []
        for rule in rules where rule.condition.matches(kind) {
            matched.append(rule)
            if !rule.continues { break }
        }
        return matched
    }

    /// Secrets by their fingerprint.
    public var signingKeys: [String: WebhookSecret] {
        var keys: [String: WebhookSecret] = [:]
        for rule in rules {
            for case .webhook(let action) in rule.actions {
                if let keyID = action.signingKeyID, let secret = action.secret { keys[keyID] = secret }
            }
        }
        return keys
    }
}
