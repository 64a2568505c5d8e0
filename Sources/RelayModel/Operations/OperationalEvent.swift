public import Foundation

/// One operational transition, as rules match it and templates and callbacks show it.
public struct OperationalEvent: Sendable, Equatable {
    public var kind: OperationalKind
    public var occurredAt: Date
    /// The target concerned (`TargetKey`): the failing one, or the dead delivery's.
    public var target: String
    public var state: TargetState?
    /// The last error the target or the delivery gave.
    public var error: String?
    /// Since when the target has been failing (target events).
    public var failingSince: Date?
    /// The dead delivery (delivery.dead).
    public var delivery: DeliveryRecord?
    /// Who made the change when an operator did (`token NAME`, `console NAME`, `cli (USER)`);
    /// nil for the relay's own transitions.
    public var by: String?

    public init(kind: OperationalKind, occurredAt: Date, target: String, state: TargetState? = nil, error: String? = nil,
                failingSince: Date? = nil, delivery: DeliveryRecord? = nil, by: String? = nil) {
        self.kind = kind
        self.occurredAt = occurredAt
        self.target = target
        self.state = state
        self.error = error
        self.failingSince = failingSince
        self.delivery = delivery
        self.by = by
    }

    /// A target's change, from its health after it.
    public init(_ change: TargetChange, health: TargetHealth, at now: Date) {
        self.init(kind: OperationalKind(change), occurredAt: now, target: health.key, state: health.state,
                  error: health.lastError, failingSince: health.failingSince)
    }

    /// The names an operational rule's templates may use.
    public static let variableNames: Set<String> = [
        "transition", "occurred_at", "target", "target_state", "error", "failing_since",
        "delivery_id", "rule", "channel", "entrupy_id", "idempotency_key", "attempts", "by",
    ]

    /// Template values: absent fields are left out, so `{{#delivery_id}}...{{/delivery_id}}` can test them.
    public var templateValues: [String: String] {
        var values = ["transition": kind.rawValue, "occurred_at": ISODate.text(occurredAt), "target": target]
        let optional: [(String, String?)] = [
            ("target_state", state?.rawValue), ("error", error), ("failing_since", failingSince.map(ISODate.text)),
            ("delivery_id", delivery.map { String($0.id) }), ("rule", delivery?.rule), ("channel", delivery?.channel.rawValue),
            ("entrupy_id", delivery?.entrupyID), ("idempotency_key", delivery?.idempotencyKey), ("attempts", delivery.map { String($0.attempts) }), ("by", by),
        ]
        for (name, value) in optional { if let value { values[name] = value } }
        return values
    }

    /// The `data` object of a callback body, and what the event row keeps.
    public var data: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var object: [String: JSONValue] = [
            "transition": .string(kind.rawValue), "occurred_at": .string(ISODate.text(occurredAt)), "target": .string(target),
            "target_state": text(state?.rawValue), "error": text(error), "failing_since": text(failingSince.map(ISODate.text)),
            "delivery": .null, "by": text(by),
        ]
        if let delivery {
            object["delivery"] = .object([
                "id": .number(JSONNumber(delivery.id)), "rule": .string(delivery.rule), "channel": .string(delivery.channel.rawValue),
                "entrupy_id": text(delivery.entrupyID), "transition": .string(delivery.transition),
                "idempotency_key": .string(delivery.idempotencyKey), "attempts": .number(JSONNumber(delivery.attempts)),
            ])
        }
        return .object(object)
    }
}
