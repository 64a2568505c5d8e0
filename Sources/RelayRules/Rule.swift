/// One entry of the rules file: when it matches a transition, each action becomes a delivery.
public struct Rule: Sendable {
    public var name: String
    public var condition: RuleCondition
    public var actions: [RuleAction]
    /// When false (the default) a match stops the evaluation: later rules are not tried.
    public var continues: Bool
    /// Where the rule starts in the file, for messages.
    public var line: Int?
    /// When its deliveries are held (`quiet_hours`); nil: never.
    public var quietHours: QuietHours?

    public init(name: String, condition: RuleCondition, actions: [RuleAction], continues: Bool, line: Int? = nil, quietHours: QuietHours? = nil) {
        self.name = name
        self.condition = condition
        self.actions = actions
        self.continues = continues
        self.line = line
        self.quietHours = quietHours
    }
}
