/// A rules file that cannot be used, with every problem found (not just the first).
public struct RuleSetError: Error, Sendable, CustomStringConvertible {
    public var problems: [RuleProblem]

    public init(problems: [RuleProblem]) {
        self.problems = problems
    }

    public var description: String {
        "\(problems.count) problem\(problems.count == 1 ? "" : "s") in the rules file:\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
