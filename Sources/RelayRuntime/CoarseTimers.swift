public import Synchronization

/// Many timers kept by one loop, for waits that are mostly disarmed before they are due
/// (deadlines, poll timeouts). A timer is an entry in a table: arming and disarming take a
/// lock, and nothing else.
///
/// Each `Task.sleep` creates a task that stays enqueued until its time has passed, even once
/// the sleep is cancelled, and arms a dispatch timer (a wake-up of dispatch's manager thread).
/// A timer task per deadline and per wait was about fifteen sleeps and thirty tasks per webhook
/// in the notify benchmark, and each cancelled one held its memory until it was due.
///
/// The loop (`tick`) checks every `resolution` (or later, up to `longestNap`, when nothing is
/// due sooner), so a timer fires at its time or up to `longestNap` after it, never before.
/// `selfTicking`: the loop is a task of the timers' own, started when a timer is armed and
/// ended when none is left; otherwise the owner runs `run()`.
public final class CoarseTimers: Sendable {
    @usableFromInline
    struct Armed: Sendable {
        @usableFromInline let due: ContinuousClock.Instant
        @usableFromInline let fire: @Sendable () -> Void

        @inlinable
        init(due: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) {
            self.due = due
            self.fire = fire
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var next: UInt64 = 0
        @usableFromInline var armed: [UInt64: Armed] = [:]
        @usableFromInline var ticking = false

        @inlinable init() {}
    }

    /// The process's shared timers: checked every 10 ms while one is due within that, at least
    /// every 100 ms while any is armed, and not at all while none is.
    public static let shared = CoarseTimers(resolution: .milliseconds(10), longestNap: .milliseconds(100), selfTicking: true)

    @usableFromInline let state = Mutex(State())
    public let resolution: Duration
    public let longestNap: Duration
    @usableFromInline let selfTicking: Bool

    public init(resolution: Duration, longestNap: Duration? = nil, selfTicking: Bool = false) {
        self.resolution = resolution
        self.longestNap = max(resolution, longestNap ?? resolution)
        self.selfTicking = selfTicking
    }

    /// Timers armed now.
    public var count: Int { state.withLock { $0.armed.count } }

    /// Arms a timer that calls `fire` once `limit` has passed (unless disarmed first); answers
    /// its token. `fire` runs on the loop's task: it must not block.
    @inlinable
    public func arm(after limit: Duration, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let due = ContinuousClock.now.advanced(by: limit)
        let (token, startLoop) = state.withLock { state -> (UInt64, Bool) in
            state.next &+= 1
            state.armed[state.next] = Armed(due: due, fire: fire)
            let start = selfTicking && !state.ticking
            if start { state.ticking = true }
            return (state.next, start)
        }
        if startLoop { startTicking() }
        return token
    }

    /// Disarms a timer; nothing happens if it has fired already.
    @inlinable
    public func disarm(_ token: UInt64) {
        _ = state.withLock { $0.armed.removeValue(forKey: token) }
    }

    /// Fires every timer due by `now`; answers how many.
    @discardableResult
    public func fireDue(now: ContinuousClock.Instant = .now) -> Int {
        let due = state.withLock { state -> [Armed] in
            let due = state.armed.filter { $0.value.due <= now }
            for key in due.keys { state.armed[key] = nil }
            return Array(due.values)
        }
        for timer in due { timer.fire() }
        return due.count
    }

    /// Fires timers as they fall due until the task is cancelled (for timers that are not
    /// `selfTicking`).
    public func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: nap())
            fireDue()
        }
    }

    @usableFromInline
    func startTicking() {
        Task.detached { await self.tickWhileArmed() }
    }

    /// The self-ticking loop: ends, under the lock, once no timer is armed, so a timer armed
    /// after that starts a new one.
    private func tickWhileArmed() async {
        while true {
            try? await Task.sleep(for: nap())
            fireDue()
            let idle = state.withLock { state -> Bool in
                if state.armed.isEmpty { state.ticking = false }
                return !state.ticking
            }
            if idle { return }
        }
    }

    /// How long to sleep before the next check: until the earliest timer is due, at least
    /// `resolution` and at most `longestNap`.
    func nap(now: ContinuousClock.Instant = .now) -> Duration {
        let earliest = state.withLock { state in state.armed.values.lazy.map(\.due).min() }
        guard let earliest else { return longestNap }
        return min(longestNap, max(resolution, earliest - now))
    }
}
