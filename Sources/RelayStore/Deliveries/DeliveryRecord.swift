import Foundation
import RelayCore

/// A stored delivery.
public struct DeliveryRecord: Sendable, Equatable {
    public var id: Int64
    public var itemEventID: Int64
    public var entrupyID: String
    public var rule: String
    public var actionIndex: Int
    public var channel: DeliveryChannel
    public var target: String
    public var payload: JSONValue
    public var signingKeyID: String?
    public var idempotencyKey: String
    public var state: DeliveryState
    /// Attempts made so far, across redrives.
    public var attempts: Int
    /// Attempts made before the latest redrive: the retry schedule counts from here.
    public var scheduleBase: Int
    public var lastError: String?
    public var nextAttemptAt: Date?
    public var createdAt: Date
    public var deliveredAt: Date?
    /// The transition that caused it.
    public var transition: String

    /// The fields people and scripts read; the payload is left out (it can be large).
    public var summaryJSON: JSONValue {
        func date(_ value: Date?) -> JSONValue { value.map { .string(Self.format($0)) } ?? .null }
        return .object([
            "id": .number(Double(id)), "entrupy_id": .string(entrupyID), "rule": .string(rule),
            "channel": .string(channel.rawValue), "target": .string(target), "state": .string(state.rawValue),
            "attempts": .number(Double(attempts)), "last_error": lastError.map(JSONValue.string) ?? .null,
            "transition": .string(transition), "idempotency_key": .string(idempotencyKey),
            "created_at": date(createdAt), "next_attempt_at": state == .failed || state == .pending ? date(nextAttemptAt) : .null,
            "delivered_at": date(deliveredAt),
        ])
    }

    static func format(_ date: Date) -> String {
        ISODate.text(date)
    }
}
