import Foundation
import RelayModel
import Yams

/// Reads a rules file (YAML) into a `RuleSet`, collecting every problem with its rule, field
/// and line instead of stopping at the first. Pure: secrets written `${NAME}` are resolved
/// through the injected `secret` lookup.
public struct RuleSetParser: Sendable {
    let secret: @Sendable (String) throws -> String?

    public init(secret: @escaping @Sendable (String) throws -> String?) {
        self.secret = secret
    }

    public func parse(_ text: String) throws(RuleSetError) -> RuleSet {
        var state = State(secret: secret)
        let rules = state.document(text)
        if !state.problems.isEmpty { throw RuleSetError(problems: state.problems) }
        return RuleSet(rules: rules, rateLimits: state.rateLimits)
    }

    /// The walk over the YAML tree; `problems` grows as it goes.
    struct State {
        let secret: @Sendable (String) throws -> String?
        var problems: [RuleProblem] = []
        /// The `targets:` list's rate limits (`RuleSetParser+Targets`).
        var rateLimits: [String: TargetRateLimit] = [:]
        /// The rule being read, for messages.
        var rule: String?
        /// The variables the rule's templates may use: an item's, an operational event's, or
        /// both when its transitions are of both kinds.
        var variables = NotificationSubject.variableNames

        init(secret: @escaping @Sendable (String) throws -> String?) {
            self.secret = secret
        }

        mutating func problem(_ field: String, _ message: String, at node: Node?) {
            problems.append(RuleProblem(rule: rule, field: field, message: message, line: node?.mark?.line))
        }

        mutating func document(_ text: String) -> [Rule] {
            let root: Node?
            do {
                root = try Yams.compose(yaml: text)
            } catch {
                problem("", "not valid YAML: \(error)", at: nil)
                return []
            }
            guard let root, let top = mapping(root, field: "", allowed: ["rules", "targets"]) else {
                if root == nil { problem("", "the file is empty; expected a top-level `rules:` list", at: nil) }
                return []
            }
            if let targets = top["targets"] { rateLimits = self.targets(targets) }
            guard let list = top["rules"] else {
                problem("rules", "required: a list of rules", at: root)
                return []
            }
            guard case .sequence(let entries) = list else {
                if list.null == nil { problem("rules", "expected a list of rules", at: list) }
                return []
            }
            var rules: [Rule] = []
            var seen: [String: Int] = [:]
            for (index, entry) in entries.enumerated() {
                rule = nil
                guard let parsed = self.rule(entry, index: index) else { continue }
                if let line = seen[parsed.name] {
                    problem("name", "duplicate rule name (first used on line \(line))", at: entry)
                    continue
                }
                seen[parsed.name] = entry.mark?.line ?? 0
                rules.append(parsed)
            }
            rule = nil
            return rules
        }

        mutating func rule(_ node: Node, index: Int) -> Rule? {
            rule = "#\(index + 1)"
            guard let fields = mapping(node, field: "", allowed: ["name", "when", "notify", "continue", "quiet_hours"]) else { return nil }
            guard let nameNode = fields["name"] else {
                problem("name", "required: every rule needs a unique name", at: node)
                return nil
            }
            guard let name = nameNode.scalar?.string.trimmingCharacters(in: .whitespaces), !name.isEmpty, name.count <= 200 else {
                problem("name", "expected a non-empty string of at most 200 characters", at: nameNode)
                return nil
            }
            rule = name
            let problemsBefore = problems.count
            let condition = fields["when"].map { self.condition($0) } ?? RuleCondition()
            let operational = !(condition.operational ?? []).isEmpty
            variables = !operational ? NotificationSubject.variableNames
                : condition.transitions?.isEmpty == true ? OperationalEvent.variableNames
                : NotificationSubject.variableNames.union(OperationalEvent.variableNames)
            var continues = false
            if let node = fields["continue"] {
                if let value = node.bool { continues = value } else { problem("continue", "expected true or false", at: node) }
            }
            var actions: [RuleAction] = []
            if let notify = fields["notify"] {
                actions = self.actions(notify)
            } else {
                problem("notify", "required: a list of email or webhook actions", at: node)
            }
            let quiet = fields["quiet_hours"].flatMap { self.quietHours($0) }
            guard problems.count == problemsBefore else { return nil }
            return Rule(name: name, condition: condition, actions: actions, continues: continues, line: node.mark?.line, quietHours: quiet)
        }

        mutating func condition(_ node: Node) -> RuleCondition {
            let keys = ["transition", "result", "flag", "brand", "category", "customer_item_id", "username"]
            guard let fields = mapping(node, field: "when", allowed: keys) else { return RuleCondition() }
            var condition = RuleCondition()
            if let node = fields["transition"], let values = strings(node, field: "when.transition") {
                var kinds = Set<TransitionKind>(), operational = Set<OperationalKind>()
                for value in values {
                    if let kind = TransitionKind(rawValue: value) {
                        kinds.insert(kind)
                    } else if let kind = OperationalKind(rawValue: value) {
                        operational.insert(kind)
                    } else {
                        let known = (TransitionKind.allCases.map(\.rawValue) + OperationalKind.allCases.map(\.rawValue)).joined(separator: ", ")
                        problem("when.transition", "unknown transition kind \"\(value)\"; expected one of \(known)", at: node)
                    }
                }
                condition.transitions = kinds
                condition.operational = operational.isEmpty ? nil : operational
            }
            condition.results = fields["result"].flatMap { lowercasedSet($0, field: "when.result") }
            condition.flags = fields["flag"].flatMap { lowercasedSet($0, field: "when.flag") }
            condition.brands = fields["brand"].flatMap { lowercasedSet($0, field: "when.brand") }
            condition.categories = fields["category"].flatMap { lowercasedSet($0, field: "when.category") }
            condition.customerItemID = fields["customer_item_id"].flatMap { pattern($0, field: "when.customer_item_id") }
            condition.username = fields["username"].flatMap { pattern($0, field: "when.username") }
            if condition.operational != nil, condition.readsItems {
                problem("when", "delivery.dead and target.* transitions concern no item: result, flag, brand, category, "
                    + "customer_item_id and username cannot match them", at: node)
            }
            return condition
        }

        // MARK: Node helpers

        /// A mapping's values by key; unknown and repeated keys are problems.
        mutating func mapping(_ node: Node, field: String, allowed: [String]) -> [String: Node]? {
            guard case .mapping(let pairs) = node else {
                problem(field, "expected a mapping of \(allowed.joined(separator: ", "))", at: node)
                return nil
            }
            var fields: [String: Node] = [:]
            for (key, value) in pairs {
                let name = key.scalar?.string ?? "?"
                let path = field.isEmpty ? name : "\(field).\(name)"
                if !allowed.contains(name) {
                    problem(path, "unknown key; expected one of \(allowed.joined(separator: ", "))", at: key)
                } else if fields[name] != nil {
                    problem(path, "given twice", at: key)
                } else {
                    fields[name] = value
                }
            }
            return fields
        }

        /// A string, or a list of strings.
        mutating func strings(_ node: Node, field: String) -> [String]? {
            switch node {
            case .scalar(let scalar) where node.null == nil:
                return [scalar.string]
            case .sequence(let items) where !items.isEmpty:
                var values: [String] = []
                for item in items {
                    guard let text = item.scalar?.string, item.null == nil else {
                        problem(field, "expected a list of strings", at: item)
                        return nil
                    }
                    values.append(text)
                }
                return values
            default:
                problem(field, "expected a string or a non-empty list of strings", at: node)
                return nil
            }
        }

        mutating func lowercasedSet(_ node: Node, field: String) -> Set<String>? {
            strings(node, field: field).map { Set($0.map { $0.lowercased() }) }
        }

        mutating func pattern(_ node: Node, field: String) -> RulePattern? {
            guard let text = node.scalar?.string, node.null == nil else {
                problem(field, "expected a regular expression as a string", at: node)
                return nil
            }
            do {
                return try RulePattern(text)
            } catch {
                problem(field, "not a valid regular expression: \"\(text)\"", at: node)
                return nil
            }
        }

        mutating func string(_ node: Node?, field: String, required: Bool, at parent: Node) -> String? {
            guard let node else {
                if required { problem(field, "required", at: parent) }
                return nil
            }
            guard let text = node.scalar?.string, node.null == nil else {
                problem(field, "expected a string", at: node)
                return nil
            }
            return text
        }
    }
}
