public import RelayModel

/// A rule's `when`: every key given must match (AND); a list matches any of its values (OR).
/// A key left out matches everything.
public struct RuleCondition: Sendable {
    /// Nil: every item transition. Empty when the rule names operational kinds only.
    public var transitions: Set<TransitionKind>?
    /// The operational transitions it names; nil or empty: none (they are matched only by name).
    public var operational: Set<OperationalKind>?
    public var results: Set<String>?
    public var flags: Set<String>?
    public var brands: Set<String>?
    public var categories: Set<String>?
    public var customerItemID: RulePattern?
    public var username: RulePattern?

    public init(transitions: Set<TransitionKind>? = nil, results: Set<String>? = nil, flags: Set<String>? = nil,
                brands: Set<String>? = nil, categories: Set<String>? = nil, customerItemID: RulePattern? = nil,
                username: RulePattern? = nil, operational: Set<OperationalKind>? = nil) {
        self.transitions = transitions
        self.operational = operational
        self.results = results
        self.flags = flags
        self.brands = brands
        self.categories = categories
        self.customerItemID = customerItemID
        self.username = username
    }

    public func matches(_ subject: NotificationSubject) -> Bool {
        matches(item: subject.item, transition: subject.transition.kind)
    }

    /// `matches(_:)` from what a condition reads: the transition's kind and the item's fields.
    public func matches(item: EntrupyItem, transition: TransitionKind) -> Bool {
        if let transitions, !transitions.contains(transition) { return false }
        return Self.matches(results, item.result) && Self.matches(flags, item.flag)
            && Self.matches(brands, item.brand) && Self.matches(categories, item.category)
            && Self.matches(customerItemID, item.customerItemID) && Self.matches(username, item.username)
    }

    /// An operational transition matches a rule that names it (and names no item field: the
    /// parser refuses that).
    public func matches(_ kind: OperationalKind) -> Bool {
        operational?.contains(kind) == true
    }

    /// Whether it names any item field (result, flag, brand...), which operational events lack.
    public var readsItems: Bool {
        results != nil || flags != nil || brands != nil || categories != nil || customerItemID != nil || username != nil
    }

    /// Values are Entrupy IDs (`authentic`, `nike`): compared without regard to case, so a rule
    /// written `Nike` still matches. A missing value matches no list.
    static func matches(_ allowed: Set<String>?, _ value: String?) -> Bool {
        guard let allowed else { return true }
        guard let value else { return false }
        return allowed.contains(value.lowercased())
    }

    static func matches(_ pattern: RulePattern?, _ value: String?) -> Bool {
        guard let pattern else { return true }
        guard let value else { return false }
        return pattern.matches(value)
    }
}
