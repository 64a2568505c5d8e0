public import Foundation
public import RelayModel

/// What a test send (`targets test`) sends: one action of one rule, rendered exactly as a real
/// delivery would be (`DeliveryPlanner.render`, or `plan(rules:event:)` for an operational rule)
/// for a fabricated item with a fixed sample value for every template variable and a transition
/// the rule matches. Pure: the same rules, choice and time give the same delivery.
public enum TargetTestSample {
    /// The sample item's Entrupy ID: says what it is wherever the partner logs it.
    public static let entrupyID = "test_sample_item"

    /// The delivery `rule`'s action `action` would make for the sample, and the transition it
    /// was rendered for: `transition` when given, else the rule's first in the contract's
    /// order (`result.final` preferred).
    public static func plan(rules: RuleSet, rule name: String, action: Int, transition: String?,
                            now: Date) throws(TargetTestProblem) -> (delivery: PlannedDelivery, transition: String) {
        guard !rules.rules.isEmpty else { throw .noRules }
        guard let rule = rules.rules.first(where: { $0.name == name }) else {
            throw .unknownRule(name, known: rules.rules.map(\.name))
        }
        guard !rule.actions.isEmpty else { throw .noActions(rule: rule.name) }
        guard rule.actions.indices.contains(action) else {
            throw .actionOutOfRange(rule: rule.name, index: action, count: rule.actions.count)
        }
        switch try kind(for: rule, requested: transition) {
        case .item(let kind):
            let subject = Self.subject(for: rule.condition, transition: kind, now: now)
            return (DeliveryPlanner.render(rule.actions[action], rule: rule.name, index: action, subject: subject, transitionIndex: 0),
                    kind.rawValue)
        case .operational(let kind):
            let planned = DeliveryPlanner.plan(rules: RuleSet(rules: [rule]), event: event(kind, now: now))
            return (planned[action], kind.rawValue)
        }
    }

    /// `targets test URL`: the relay's own body for a sample `result.final`, to `url`, signed
    /// unless `signed` is false (no secret given).
    public static func plan(url: String, signed: Bool = true, now: Date) -> PlannedDelivery {
        let subject = subject(for: RuleCondition(), transition: .resultFinal, now: now)
        let body = JSONValue.object(["type": .string(TransitionKind.resultFinal.rawValue), "timestamp": .string(subject.occurredAtText),
                                     "data": subject.callbackData])
        return PlannedDelivery(transitionIndex: 0, entrupyID: entrupyID, rule: "", actionIndex: 0, target: MaskedURL.mask(url),
                               payload: .webhook(.init(url: url, headers: [], body: body.jsonText, unsigned: !signed)), signingKeyID: nil)
    }

    /// Every action of every rule, as a test send names them.
    public static func actions(in rules: RuleSet) -> [TestableAction] {
        rules.rules.flatMap { rule in
            rule.actions.enumerated().map { index, action in
                switch action {
                case .email(let email): TestableAction(rule: rule.name, action: index, channel: .email, target: DeliveryPlanner.emailTarget(email.to))
                case .webhook(let webhook): TestableAction(rule: rule.name, action: index, channel: .webhook, target: MaskedURL.mask(webhook.url))
                }
            }
        }
    }

    enum Kind: Equatable {
        case item(TransitionKind)
        case operational(OperationalKind)
    }

    /// The requested kind when the rule matches it; else the rule's first item kind (result.final
    /// when it has it), else its first operational kind.
    static func kind(for rule: Rule, requested: String?) throws(TargetTestProblem) -> Kind {
        let items = TransitionKind.allCases.filter { rule.condition.transitions?.contains($0) ?? (rule.condition.operational ?? []).isEmpty }
        let operational = OperationalKind.allCases.filter { rule.condition.operational?.contains($0) == true }
        let matched = items.map(\.rawValue) + operational.map(\.rawValue)
        guard let requested else {
            if items.contains(.resultFinal) { return .item(.resultFinal) }
            if let first = items.first { return .item(first) }
            if let first = operational.first { return .operational(first) }
            throw .noActions(rule: rule.name)
        }
        if let kind = TransitionKind(rawValue: requested) {
            guard items.contains(kind) else { throw .transitionNotMatched(rule: rule.name, transition: requested, matched: matched) }
            return .item(kind)
        }
        if let kind = OperationalKind(rawValue: requested) {
            guard operational.contains(kind) else { throw .transitionNotMatched(rule: rule.name, transition: requested, matched: matched) }
            return .operational(kind)
        }
        throw .unknownTransition(requested)
    }
}
