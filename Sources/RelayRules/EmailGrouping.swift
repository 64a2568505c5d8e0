public import RelayModel

/// How an email action groups its transitions (`group_by` with `group_wait` or `digest`):
/// each transition is still its own delivery, and the deliveries of one group that are
/// pending when it is due go out as one email.
public struct EmailGrouping: Sendable {
    /// The template variables whose rendered values split the groups (`rule` is always part
    /// of the key and may be named for clarity).
    public var groupBy: [String]
    public var timing: EmailGroupTiming
    /// The digest email's subject (`digest_subject`): may use `count`, `rule` and the
    /// `group_by` names. Without it: "N notifications from rule R".
    public var subject: NotificationTemplate?

    public init(groupBy: [String], timing: EmailGroupTiming, subject: NotificationTemplate? = nil) {
        self.groupBy = groupBy
        self.timing = timing
        self.subject = subject
    }

    /// The group a delivery of this action joins, given its transition's template values:
    /// its key is the rule, the action, its recipients and the values of `group_by`.
    public func group(rule: String, actionIndex: Int, to recipients: [String], values: [String: String]) -> EmailGroup {
        var named: [String: String] = [:]
        for name in groupBy where name != "rule" { named[name] = values[name] ?? "" }
        let separator = "\u{1F}"
        let key = ([rule, String(actionIndex), recipients.joined(separator: ",")]
            + groupBy.filter { $0 != "rule" }.map { "\($0)=\(named[$0] ?? "")" }).joined(separator: separator)
        return EmailGroup(key: key, values: named, timing: timing, subject: subject?.source)
    }
}
