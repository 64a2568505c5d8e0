public import Foundation

/// How long each kind of data is kept, in days (nil: kept for ever). Pure: the pruner asks it
/// for each kind's cutoff and `config check` for its problems.
public struct RetentionPolicy: Sendable, Equatable {
    public var days: [RetentionKind: Int]

    public init(days: [RetentionKind: Int]) {
        self.days = days.filter { $0.value > 0 }
    }

    /// The defaults, and why (docs/operations.md, "Retention and erasure"): bodies and payloads a month (support reads
    /// them in the days after a dispute; Entrupy keeps the item itself), their metadata and
    /// attempts 400 days (a year of audits and a month's grace), fetch records 90 days (the
    /// sync's lookback), the SDK users mirror while a person
    /// keeps authorising (erasure is how one leaves).
    public static let standard = RetentionPolicy(days: [
        .webhookBodies: 30, .webhookEvents: 400, .reconciliations: 90, .deliveryPayloads: 30, .deliveryAttempts: 400,
    ])

    /// Rows of `kind` older than this instant go; nil when the kind is kept for ever.
    public func cutoff(_ kind: RetentionKind, now: Date) -> Date? {
        days[kind].map { now.addingTimeInterval(-Double($0) * 86_400) }
    }

    /// Settings that contradict each other: metadata kept for less time than its payload would
    /// remove the payload with it, which the payload's own setting does not say.
    public var problems: [String] {
        var problems: [String] = []
        func check(_ payload: RetentionKind, within metadata: RetentionKind) {
            guard let kept = days[metadata] else { return }
            guard let payloadDays = days[payload] else {
                problems.append("\(metadata.rawValue) is kept \(kept) days but \(payload.rawValue) for ever: "
                    + "set \(payload.rawValue) to at most \(kept) days (or 0 for both)")
                return
            }
            if payloadDays > kept {
                problems.append("\(payload.rawValue) (\(payloadDays) days) outlive their \(metadata.rawValue) (\(kept) days): "
                    + "they would go with them; set \(payload.rawValue) to at most \(kept)")
            }
        }
        check(.webhookBodies, within: .webhookEvents)
        return problems
    }
}
