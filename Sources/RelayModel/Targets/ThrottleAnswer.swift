/// What a throttled target's shared slots answer a delivery (`PostgresTargetThrottle.take`).
/// Slots are one `TargetRateLimit.period` apart. A delivery whose slot is due within `horizon`
/// takes it and waits for it in the process; any other takes no slot (none is burnt by a
/// delivery that will not be sent then) but an appointment: the appointments are handed out one
/// period apart too, after the slots already taken, so a backlog wakes one delivery per slot
/// instead of all at once.
public enum ThrottleAnswer: Sendable, Equatable {
    /// A slot is taken: send once `wait` has passed (zero: now).
    case slot(wait: Duration)
    /// No slot taken: come back at about `appointment` from now.
    case later(appointment: Duration)

    /// How far ahead a slot may be taken and waited for in the process.
    public static let horizon = Duration.seconds(1)
    /// The shortest snooze, and the longest by default (`target_throttle_max_wait_seconds`): a
    /// job whose appointment is further off wakes then and asks again, and no appointment is
    /// booked further ahead, so a changed or removed limit applies to a backlog within it.
    public static let shortestSnooze = Duration.milliseconds(50)
    public static let longestSnooze = Duration.seconds(900)

    /// The snooze for an appointment: woken a random share (30 to 70 %, by `jitter` from 0 to 1)
    /// of the horizon before it, so its slot is within the horizon when it runs though the queue
    /// claims it a little late, and deliveries given the same appointment by racing replicas do
    /// not wake together. An appointment past `longest` is cut to it (jittered the same way).
    public static func snooze(before appointment: Duration, jitter: Double, longest: Duration = longestSnooze) -> Duration {
        let share = 0.3 + 0.4 * min(max(jitter.isFinite ? jitter : 0.5, 0), 1)
        let snooze = min(appointment, max(longest, shortestSnooze)) - horizon * share
        return max(snooze, shortestSnooze)
    }
}
