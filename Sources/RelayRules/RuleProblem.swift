/// One thing wrong with a rules file, named by rule and field so the fix is obvious:
/// `line 7: rule "authentic-mail": when.transition: unknown transition kind "result.finale"`.
public struct RuleProblem: Sendable, Equatable, CustomStringConvertible {
    /// The rule's name (or `#N` when it has none); nil for problems outside any rule.
    public var rule: String?
    /// The field's path inside the rule, e.g. `notify[1].webhook.url`.
    public var field: String
    public var message: String
    public var line: Int?

    public init(rule: String?, field: String, message: String, line: Int?) {
        self.rule = rule
        self.field = field
        self.message = message
        self.line = line
    }

    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        if let rule { parts.append("rule \"\(rule)\"") }
        parts.append(field.isEmpty ? message : "\(field): \(message)")
        return parts.joined(separator: ": ")
    }
}
