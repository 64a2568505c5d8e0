import Synchronization
import Testing
@testable import RelayHTTP

/// Issue 27, 8: every unauthenticated `/readyz` ran a query on the ingestion pool. Now a
/// flood costs one check a second, and callers during a check share it.
@Suite("Cached readiness")
struct CachedReadinessTests {
    final class CountingCheck: ReadinessCheck {
        let calls = Mutex(0)
        func check() async -> ReadinessReport {
            let n = calls.withLock { $0 += 1; return $0 }
            try? await Task.sleep(for: .milliseconds(50))
            return ReadinessReport(ready: true, checks: ["database": "ok \(n)"])
        }
    }

    @Test func aFloodCostsOneCheckPerSecond() async {
        let counting = CountingCheck()
        let cached = CachedReadiness(counting, lifetime: .seconds(1))
        let started = ContinuousClock.now
        // 1,000 callers over about 1.5 s, 50 at a time.
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<20 {
                for _ in 0..<50 { group.addTask { _ = await cached.check() } }
                try? await Task.sleep(until: started + .milliseconds(75 * (round + 1)))
            }
        }
        let elapsed = ContinuousClock.now - started
        let calls = counting.calls.withLock { $0 }
        let allowed = Int((elapsed / .seconds(1)).rounded(.up)) + 1
        #expect(calls >= 1 && calls <= allowed, "\(calls) checks in \(elapsed)")
    }

    @Test func callersDuringACheckShareIt() async {
        let counting = CountingCheck()
        let cached = CachedReadiness(counting, lifetime: .zero)
        let reports = await withTaskGroup(of: ReadinessReport.self) { group in
            for _ in 0..<20 { group.addTask { await cached.check() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // With no caching at all, only the overlap with a running check saves a call.
        #expect(counting.calls.withLock { $0 } <= 5)
        #expect(reports.allSatisfy { $0.ready })
    }
}
