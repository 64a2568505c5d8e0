import Foundation
import PostgresNIO
import RelayApp
import RelayModel
import RelayRuntime
import Synchronization
import Testing

@Suite("The database pool under dropped connections", .timeLimit(.minutes(2)))
struct PoolResilienceTests {
    /// PostgreSQL ends the relay's connections (a restart, a failover, an administrator's
    /// pg_terminate_backend) while every connection is busy. The process must stay up and the
    /// pool serve again. postgres-nio 1.33.2 traps when a connection is asked for while fewer
    /// are open than its `minimumConnections` (chaos.sh's PostgreSQL stops took three relays
    /// down that way), so the relay's pools never set it. A query caught on a connection
    /// being ended can also wait until its caller's deadline: each here has one.
    @Test func terminatedConnectionsAreReplacedWithoutTakingTheProcessDown() async throws {
        try await TestDatabase.with { db async throws in
            let client = try DatabaseClientFactory.makeClient(db, poolSize: 4, logger: TestDatabase.logger)
            try await TestDatabase.withClient(db) { admin in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await client.run() }
                    defer { group.cancelAll() }
                    let deadline = ContinuousClock.now + .seconds(3)
                    let terminated = try await withThrowingTaskGroup(of: Int.self) { load in
                        for _ in 0..<12 {
                            load.addTask {
                                while ContinuousClock.now < deadline {
                                    if (try? await withDeadline(.seconds(5)) { try await client.query("SELECT pg_sleep(0.005)").collect() }) == nil {
                                        try await Task.sleep(for: .milliseconds(20))
                                    }
                                }
                                return 0
                            }
                        }
                        load.addTask {
                            var terminated = 0
                            while ContinuousClock.now < deadline {
                                let rows = try await admin.query("""
                                    SELECT count(*)::int8 FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                                    WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'SELECT pg_sleep%') AS t
                                    """).collect()
                                terminated += Int(try rows.first?.decode(Int64.self) ?? 0)
                                try await Task.sleep(for: .milliseconds(30))
                            }
                            return terminated
                        }
                        return try await load.reduce(0, +)
                    }
                    #expect(terminated > 0, "the test ended some of the pool's connections")
                    #expect(try await eventually(timeout: .seconds(20)) {
                        (try? await withDeadline(.seconds(2)) { try await client.query("SELECT 1").collect() }) != nil
                    }, "the pool serves again")
                }
            }
        }
    }

    /// PostgreSQL goes away for two seconds (every connection dropped, new ones refused) under
    /// load, then comes back: chaos.sh's immediate stop, through a proxy.
    @Test func anOutageUnderLoadEndsWithThePoolServingAgain() async throws {
        try await TestDatabase.with { db async throws in
            let proxy = try TCPProxy(targetHost: db.host, targetPort: db.port)
            var viaProxy = db
            viaProxy.host = "127.0.0.1"
            viaProxy.port = try await proxy.start()
            defer { Task { await proxy.stop() } }
            let client = try DatabaseClientFactory.makeClient(viaProxy, poolSize: 4, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                // Each query's outcome, by the phase it ended in: served before the outage, refused
                // during it (so the outage was real); then the pool serves again without a restart.
                let tally = Tally()
                let deadline = ContinuousClock.now + .seconds(6)
                try await withThrowingTaskGroup(of: Void.self) { load in
                    for _ in 0..<12 {
                        load.addTask {
                            while ContinuousClock.now < deadline {
                                let served = (try? await withDeadline(.seconds(5)) { try await client.query("SELECT pg_sleep(0.005)").collect() }) != nil
                                tally.add(served: served)
                                if !served { try await Task.sleep(for: .milliseconds(20)) }
                            }
                        }
                    }
                    try await Task.sleep(for: .seconds(1))
                    tally.phase.withLock { $0 = "during" }
                    proxy.setAvailable(false)
                    try await Task.sleep(for: .seconds(2))
                    proxy.setAvailable(true)
                    tally.phase.withLock { $0 = "after" }
                    try await load.waitForAll()
                }
                let counts = tally.counts.withLock { $0 }
                #expect((counts["before"]?.served ?? 0) > 0, "\(counts)")
                #expect((counts["during"]?.failed ?? 0) > 0, "the outage refused queries: \(counts)")
                #expect(try await eventually(timeout: .seconds(30)) {
                    (try? await withDeadline(.seconds(2)) { try await client.query("SELECT 1").collect() }) != nil
                }, "the pool serves again")
            }
        }
    }

    /// Query outcomes by the phase they ended in.
    final class Tally: Sendable {
        let phase = Mutex("before")
        let counts = Mutex<[String: (served: Int, failed: Int)]>([:])
        func add(served: Bool) {
            let now = phase.withLock { $0 }
            counts.withLock { counts in
                if served { counts[now, default: (0, 0)].served += 1 } else { counts[now, default: (0, 0)].failed += 1 }
            }
        }
    }
}
