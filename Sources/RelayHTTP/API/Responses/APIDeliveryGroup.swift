public import RelayModel
import Foundation

/// The email group a delivery is sent in (`group_by` with `group_wait` or `digest`): one email
/// carries every delivery of the group pending when it is due. Each attempt of a delivery sent
/// in a group names the email (`sent in digest <Message-ID> with N deliveries`).
struct APIDeliveryGroup: Encodable, Sendable {
    /// The `group_by` values, by name.
    let values: [String: String]
    /// `group_wait 600s` or `digest 08:00 Europe/Paris`.
    let timing: String
    /// When its group is due: the wait after it was created, or the digest's next time after that.
    let dueAt: Date

    enum CodingKeys: String, CodingKey {
        case values, timing, dueAt = "due_at"
    }

    init?(_ delivery: DeliveryRecord) {
        guard case .email(let email)? = delivery.payload, let group = email.group else { return nil }
        values = group.values
        switch group.timing {
        case .wait(let seconds): timing = "group_wait \(seconds)s"
        case .digest(let schedule): timing = "digest \(schedule.atText) \(schedule.timeZone.identifier)"
        }
        dueAt = group.timing.due(createdAt: delivery.createdAt)
    }
}
