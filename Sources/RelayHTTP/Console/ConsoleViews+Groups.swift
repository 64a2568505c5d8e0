import Foundation
import RelayModel

extension ConsoleViews {
    /// What the console says of a delivery sent in an email group: its values, how it is
    /// timed, and when its group is due (`APIDeliveryGroup`); nil for one sent alone.
    static func groupNote(_ delivery: DeliveryRecord) -> String? {
        guard let group = APIDeliveryGroup(delivery) else { return nil }
        let values = group.values.keys.sorted().map { "\($0)=\(group.values[$0] ?? "")" }.joined(separator: ", ")
        return "grouped" + (values.isEmpty ? "" : " by \(values)") + ", \(group.timing), due \(time(group.dueAt))"
    }

    /// An attempt's error, and for one made in a group's email the note it carries
    /// (`sent in digest <Message-ID> with N deliveries`); "–" for neither.
    static func attemptNote(_ attempt: DeliveryAttempt) -> String {
        let digest = attempt.responseExcerpt.flatMap { $0.hasPrefix("sent in digest ") ? $0 : nil }
        let notes = [attempt.error, digest].compactMap { $0 }
        return notes.isEmpty ? "–" : notes.joined(separator: "; ")
    }
}
