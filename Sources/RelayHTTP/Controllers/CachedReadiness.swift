import Synchronization

/// A readiness check asked at most once per `lifetime`, however often `/readyz` is hit: every
/// caller within it gets the last answer, and callers that arrive while a check runs wait for
/// that one instead of starting their own. An unauthenticated flood of `/readyz` costs the
/// database one query a second, not one per request.
public final class CachedReadiness: ReadinessCheck {
    struct State {
        var report: ReadinessReport?
        var checkedAt: ContinuousClock.Instant?
        var running: Task<ReadinessReport, Never>?
    }

    let wrapped: any ReadinessCheck
    let lifetime: Duration
    private let state = Mutex(State())

    public init(_ wrapped: any ReadinessCheck, lifetime: Duration = .seconds(1)) {
        self.wrapped = wrapped
        self.lifetime = lifetime
    }

    public func check() async -> ReadinessReport {
        let now = ContinuousClock.now
        let task: Task<ReadinessReport, Never> = state.withLock { state in
            if let report = state.report, let at = state.checkedAt, now - at < lifetime {
                return Task { report }
            }
            if let running = state.running { return running }
            let wrapped = self.wrapped
            let running = Task { await wrapped.check() }
            state.running = running
            return running
        }
        let report = await task.value
        state.withLock { state in
            if state.running == task {
                state.report = report
                state.checkedAt = ContinuousClock.now
                state.running = nil
            }
        }
        return report
    }
}
