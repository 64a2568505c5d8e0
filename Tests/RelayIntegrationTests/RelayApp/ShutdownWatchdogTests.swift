import Foundation
@testable import RelayApp
import ServiceLifecycle
import Synchronization
import Testing

/// A service that never returns, even when cancelled (an await on a connection the database
/// dropped): the process must still end, by the watchdog, after the grace period and the
/// cancellation allowance. The chaos run left a `serve` replica alive after SIGTERM this way.
@Suite("Bounded shutdown", .timeLimit(.minutes(1)))
struct ShutdownWatchdogTests {
    struct DeafService: Service {
        static let held = Mutex<[CheckedContinuation<Void, Never>]>([])
        func run() async throws {
            await withCheckedContinuation { continuation in Self.held.withLock { $0.append(continuation) } }
        }
    }

    @Test func aShutdownThatHangsEndsByTheWatchdog() async throws {
        let overran = Mutex<ContinuousClock.Instant?>(nil)
        let group = BoundedServiceGroup.make([DeafService()], grace: .milliseconds(300), logger: TestDatabase.logger,
                                             signals: [], allowance: .milliseconds(500),
                                             onOverrun: { overran.withLock { $0 = .now } })
        let running = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        await group.triggerGracefulShutdown()
        #expect(try await eventually(timeout: .seconds(20)) { overran.withLock { $0 } != nil })
        if let at = overran.withLock({ $0 }) {
            #expect(at - started >= .milliseconds(700), "not before the grace and the allowance")
        }
        _ = running  // the deaf service never returns: the group's task is left behind on purpose
    }
}
