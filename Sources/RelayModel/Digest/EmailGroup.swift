public import Foundation

/// The group an email delivery joins (`group_by` and `group_wait` or `digest` on a rule's
/// email action), stored in its payload: deliveries with equal `key` that are pending when
/// the group is due go out as one email, and each is settled by it.
public struct EmailGroup: Sendable, Equatable {
    /// The rule, the action's index and recipients, and the `group_by` values: what makes two
    /// deliveries one email.
    public var key: String
    /// The `group_by` values, by name (for the digest's subject and for people).
    public var values: [String: String]
    public var timing: EmailGroupTiming
    /// The `digest_subject` template's source, when the action gives one.
    public var subject: String?

    public init(key: String, values: [String: String], timing: EmailGroupTiming, subject: String? = nil) {
        self.key = key
        self.values = values
        self.timing = timing
        self.subject = subject
    }

    /// The group's values for people: `brand=Gucci, category=Bags`, in name order.
    public var label: String {
        values.keys.sorted().map { "\($0)=\(values[$0] ?? "")" }.joined(separator: ", ")
    }

    /// The stored form, under the email payload's `group`.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "key": .string(key), "values": .object(values.mapValues(JSONValue.string)),
        ]
        switch timing {
        case .wait(let seconds): fields["wait_seconds"] = .string(String(seconds))
        case .digest(let schedule):
            fields["digest_at"] = .string(schedule.atText)
            fields["time_zone"] = .string(schedule.timeZone.identifier)
        }
        if let subject { fields["subject"] = .string(subject) }
        return .object(fields)
    }

    /// Reads the stored form; nil when it lacks a key or a timing it can read.
    public init?(stored json: JSONValue) {
        guard let key = json["key"]?.stringValue, !key.isEmpty else { return nil }
        let timing: EmailGroupTiming
        if let wait = json["wait_seconds"]?.stringValue.flatMap({ Int($0) }), wait > 0 {
            timing = .wait(seconds: wait)
        } else if let at = json["digest_at"]?.stringValue, let zone = json["time_zone"]?.stringValue,
                  let schedule = DigestSchedule(at: at, timeZone: zone) {
            timing = .digest(schedule)
        } else {
            return nil
        }
        let values = (json["values"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
        self.init(key: key, values: values, timing: timing, subject: json["subject"]?.stringValue)
    }
}
