import Foundation
import RelayModel
import RelayQueue
import RelayWorker
import Testing

/// Issue 46: a grouped email delivery's job waits until its group is due (its `group_wait`
/// after it was created, or the digest's next time), and, failed, until the group's next
/// attempt; nothing is sent meanwhile. (Sending a group needs PostgreSQL's row locks:
/// EmailDigestTests.)
@Suite("The deliver handler and email groups")
struct DeliveryHandlerGroupTests {
    static func grouped(_ id: Int64, timing: EmailGroupTiming, createdAt: Date, state: DeliveryState = .pending,
                        nextAttemptAt: Date? = nil) -> DeliveryRecord {
        var record = DeliveryHandlerTests.delivery(id, channel: .email, state: state, attempts: state == .failed ? 1 : 0)
        record.payload = .email(.init(to: ["ops@example.com"], subject: "s", text: "t",
                                      group: EmailGroup(key: "r\u{1F}0", values: [:], timing: timing)))
        record.createdAt = createdAt
        record.nextAttemptAt = nextAttemptAt
        return record
    }

    static func wait(_ result: JobResult) -> Duration? {
        if case .snooze(let wait) = result.outcome { return wait } else { return nil }
    }

    @Test func aGroupedDeliveryWaitsUntilItsGroupIsDue() async throws {
        let email = ScriptedSender(AttemptReport(result: .delivered))
        let now = Date()
        let schedule = try #require(DigestSchedule(at: "08:00", timeZone: "Asia/Tokyo"))
        let deliveries = [
            Self.grouped(1, timing: .wait(seconds: 600), createdAt: now),
            Self.grouped(2, timing: .digest(schedule), createdAt: now),
            Self.grouped(3, timing: .wait(seconds: 60), createdAt: now.addingTimeInterval(-120), state: .failed,
                         nextAttemptAt: now.addingTimeInterval(30)),
        ]
        let handler = DeliveryHandlerTests.handler(deliveries, callbacks: ScriptedSender(AttemptReport(result: .delivered)), email: email)
        let first = try #require(Self.wait(try await DeliveryHandlerTests.run(handler, 1)))
        #expect(first > .seconds(595) && first < .seconds(601), "\(first)")
        let digest = try #require(Self.wait(try await DeliveryHandlerTests.run(handler, 2)))
        let due = schedule.next(after: deliveries[1].createdAt).timeIntervalSince(now)
        #expect(abs(Double(digest.components.seconds) - due) < 2, "\(digest) against \(due) s")
        let retry = try #require(Self.wait(try await DeliveryHandlerTests.run(handler, 3)))
        #expect(retry > .seconds(25) && retry < .seconds(31), "a failed group waits for its next attempt: \(retry)")
        #expect(email.sent.isEmpty, "nothing is sent before the group is due")
    }
}
