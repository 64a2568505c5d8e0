public import Foundation
public import RelayModel

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

    /// The deliveries an operational transition causes: each action of each rule naming it,
    /// rendered with the event's values. `transitionIndex` and `entrupyID` are not used for
    /// them (the store ties them to the event's row).
    public static func plan(rules: RuleSet, event: OperationalEvent) -> [PlannedDelivery] {
        let values = event.templateValues
        let body = { JSONValue.object(["type": .string(event.kind.rawValue), "timestamp": .string(ISODate.text(event.occurredAt)),
                                       "data": event.data]) }
        return rules.matching(event.kind).flatMap { rule in
            rule.actions.enumerated().map { index, action in
                render(action, rule: rule.name, index: index, values: values, body: body, transitionIndex: 0, entrupyID: "",
                       operational: true)
            }
        }
    }

    /// An email's target as deliveries show it: its recipients, at most 500 characters (the
    /// column is indexed for search; the payload keeps every recipient).
    static func emailTarget(_ recipients: [String]) -> String {
        let joined = recipients.joined(separator: ", ")
        return joined.count <= 500 ? joined : String(joined.prefix(499)) + "…"
    }

    public static func render(_ action: RuleAction, rule: String, index: Int, subject: NotificationSubject,
                              transitionIndex: Int) -> PlannedDelivery {
        let body = {
            JSONValue.object([
                "type": .string(subject.transition.kind.rawValue),
                "timestamp": .string(subject.occurredAtText),
                "data": subject.callbackData,
            ])
        }
        return render(action, rule: rule, index: index, values: subject.templateValues, body: body, transitionIndex: transitionIndex,
                      entrupyID: subject.item.entrupyID)
    }

    /// One action rendered: an email from the template values, a callback carrying the
    /// action's body (`WebhookBody`), or `body`, the relay's own, when it has none (built only
    /// then); a body template that is not JSON for these values makes an unsendable callback. `operational` says the values are an operational event's (a preset's line differs).
    public static func render(_ action: RuleAction, rule: String, index: Int, values: [String: String], body: () -> JSONValue,
                              transitionIndex: Int, entrupyID: String, operational: Bool = false) -> PlannedDelivery {
        switch action {
        case .email(let email):
            let payload = DeliveryPayload.email(.init(to: email.to, subject: email.subject.render(values), text: email.text.render(values),
                                                      html: email.html?.render(values),
                                                      group: email.grouping?.group(rule: rule, actionIndex: index, to: email.to, values: values)))
            return PlannedDelivery(transitionIndex: transitionIndex, entrupyID: entrupyID, rule: rule, actionIndex: index,
                                   target: emailTarget(email.to), payload: payload, signingKeyID: nil)
        case .webhook(let webhook):
            // A body template that is not JSON for this item: stored with no body and the reason, which the deliverer fails it with.
            let rendered = webhook.body.render(values, operational: operational, standard: body)
            let (text, unsendable): (String, String?) = switch rendered {
            case .success(let text): (text, nil)
            case .failure(let invalid): ("", invalid.message)
            }
            let payload = DeliveryPayload.webhook(.init(url: webhook.url, headers: webhook.headers.map { .init(name: $0.name, value: $0.value) },
                                                        body: text, unsigned: webhook.unsigned, unsendable: unsendable))
            return PlannedDelivery(transitionIndex: transitionIndex, entrupyID: entrupyID, rule: rule, actionIndex: index,
                                   target: MaskedURL.mask(webhook.url), payload: payload, signingKeyID: webhook.signingKeyID)
        }
    }
}
