import Foundation
import Logging
public import RelayRules
import Synchronization

/// The rules in force. Loaded from `ENTRUPY_RELAY_RULES_FILE` at start-up (an invalid file stops the start);
/// `reload()` swaps in a new file only when it is valid, so a mistake on SIGHUP keeps the old rules.
public final class RulesStore: Sendable {
    public let path: String?
    let parser: RuleSetParser
    private let rules: Mutex<RuleSet>

    /// Loads `path` now (no rules when nil).
    public init(path: String?, parser: RuleSetParser) throws {
        self.path = path
        self.parser = parser
        self.rules = Mutex(try path.map { try Self.load($0, parser: parser) } ?? .empty)
    }

    public var current: RuleSet { rules.withLock { $0 } }

    /// Reads the file again; on any problem the old rules stay and the error is thrown.
    @discardableResult
    public func reload() throws -> RuleSet {
        guard let path else { return current }
        let fresh = try Self.load(path, parser: parser)
        rules.withLock { $0 = fresh }
        return fresh
    }

    public static func load(_ path: String, parser: RuleSetParser) throws -> RuleSet {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw RuleSetError(problems: [RuleProblem(rule: nil, field: "", message: "cannot read \(path)", line: nil)])
        }
        return try parser.parse(text)
    }
}
