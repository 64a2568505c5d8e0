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
        enum Next { case cached(ReadinessReport), await(Task<ReadinessReport, Never>) }
        let now = ContinuousClock.now
        let next: Next = state.withLock { state in
            if let report = state.report, let at = state.checkedAt, now - at < lifetime { return .cached(report) }
            if let running = state.running { return .await(running) }
            let wrapped = self.wrapped
            let running = Task { await wrapped.check() }
            state.running = running
            return .await(running)
        }
        let task: Task<ReadinessReport, Never>
        switch next {
        case .cached(let report): return report
        case .await(let running): task = running
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
