/// Why a test send was refused before anything was sent: each a clear sentence for the CLI's
/// one line and the API's 4xx.
public enum TargetTestProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case noRules
    case unknownRule(String, known: [String])
    case noActions(rule: String)
    case actionOutOfRange(rule: String, index: Int, count: Int)
    case unknownTransition(String)
    case transitionNotMatched(rule: String, transition: String, matched: [String])
    case invalidURL(String)

    /// The unknown rule is a 404 to the API; everything else is a 400.
    public var isNotFound: Bool {
        if case .unknownRule = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .noRules:
            return "no rules are loaded (ENTRUPY_RELAY_RULES_FILE is not set or has no rules)"
        case .unknownRule(let name, let known):
            let list = known.prefix(20).joined(separator: ", ")
            return "no rule named \"\(TerminalText.printable(String(name.prefix(128))))\"" + (known.isEmpty ? "" : " (rules: \(list))")
        case .noActions(let rule):
            return "rule \"\(rule)\" has no action to try"
        case .actionOutOfRange(let rule, let index, let count):
            return "rule \"\(rule)\" has no action \(index): its actions are 0 to \(count - 1)"
        case .unknownTransition(let kind):
            return "unknown transition kind \"\(TerminalText.printable(String(kind.prefix(64))))\""
        case .transitionNotMatched(let rule, let transition, let matched):
            return "rule \"\(rule)\" does not match \(transition) (it matches \(matched.joined(separator: ", ")))"
        case .invalidURL(let url):
            return "not an http(s) URL with a host: \(MaskedURL.mask(String(url.prefix(300))))"
        }
    }
}
