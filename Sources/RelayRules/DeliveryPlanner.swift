import Foundation
import RelayCore

/// Turns transitions into rendered deliveries: for each transition, the rules that fire,
/// and for each of their actions one `PlannedDelivery`. Pure: the store inserts what it
/// returns in the transaction that recorded the transitions.
public enum DeliveryPlanner {
    /// - Parameter occurredAt: when the transitions happened, as the timeline records them.
    public static func plan(rules: RuleSet, item: EntrupyItem, transitions: [Transition], occurredAt: Date,
                            uniqueUserID: String? = nil) -> [PlannedDelivery] {
        var planned: [PlannedDelivery] = []
        guard !transitions.isEmpty, !rules.rules.isEmpty else { return planned }
        let details = ItemDetails.read(from: item.raw)
        for (position, transition) in transitions.enumerated() {
            let subject = NotificationSubject(item: item, transition: transition, occurredAt: occurredAt, details: details,
                                              uniqueUserID: uniqueUserID)
            for rule in rules.matching(subject) {
                for (index, action) in rule.actions.enumerated() {
                    planned.append(render(action, rule: rule.name, index: index, subject: subject, transitionIndex: position))
                }
            }
        }
        return planned
    }

    /// Whether `plan` would plan any delivery, found without rendering one: so what only a
    /// delivery needs (the submitter's unique user ID, a query) is looked up before planning once.
    public static func plansAny(rules: RuleSet, item: EntrupyItem, transitions: [Transition]) -> Bool {
        transitions.contains { transition in
            rules.matching(item: item, transition: transition.kind).contains { !$0.actions.isEmpty }
        }
    }

    public static func render(_ action: RuleAction, rule: String, index: Int, subject: NotificationSubject,
                              transitionIndex: Int) -> PlannedDelivery {
        let values = subject.templateValues
        switch action {
        case .email(let email):
            var payload: [String: JSONValue] = [
                "to": .array(email.to.map(JSONValue.string)),
                "subject": .string(email.subject.render(values)),
                "text": .string(email.text.render(values)),
            ]
            if let html = email.html { payload["html"] = .string(html.render(values)) }
            return PlannedDelivery(transitionIndex: transitionIndex, entrupyID: subject.item.entrupyID, rule: rule, actionIndex: index,
                                   channel: .email, target: email.to.joined(separator: ", "), payload: .object(payload),
                                   signingKeyID: nil)
        case .webhook(let webhook):
            let body = JSONValue.object([
                "type": .string(subject.transition.kind.rawValue),
                "timestamp": .string(subject.occurredAtText),
                "data": subject.callbackData,
            ])
            let payload = JSONValue.object([
                "url": .string(webhook.url),
                "headers": .array(webhook.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "body": .string(body.jsonText),
            ])
            return PlannedDelivery(transitionIndex: transitionIndex, entrupyID: subject.item.entrupyID, rule: rule, actionIndex: index,
                                   channel: .webhook, target: MaskedURL.mask(webhook.url), payload: payload,
                                   signingKeyID: webhook.signingKeyID)
        }
    }
}
