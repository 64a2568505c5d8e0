public import Foundation

/// When a group of email deliveries is sent: a wait after the group's first transition
/// (`group_wait`), or a daily digest (`digest`).
public enum EmailGroupTiming: Sendable, Equatable {
    case wait(seconds: Int)
    case digest(DigestSchedule)

    /// When a delivery created at `createdAt` is due: the wait after it, or the digest's next
    /// time. A group is sent when its earliest member is due, with every member pending then.
    public func due(createdAt: Date) -> Date {
        switch self {
        case .wait(let seconds): createdAt.addingTimeInterval(TimeInterval(seconds))
        case .digest(let schedule): schedule.next(after: createdAt)
        }
    }
}
