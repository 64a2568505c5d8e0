import Foundation
import PostgresNIO
import RelayApp
import RelayModel
import RelayStore
import Testing

@Suite("Pool warm-up", .timeLimit(.minutes(2)))
struct PoolWarmupTests {
    /// The warmed connections are open, each a distinct backend, by the time the warm-up says so,
    /// and readiness waited for it.
    @Test func opensEveryKeptConnectionBeforeReadiness() async throws {
        try await TestDatabase.with { db async throws in
            let client = try DatabaseClientFactory.makeClient(db, poolSize: 6, logger: TestDatabase.logger)
            let warmup = PoolWarmup(client: client, connections: 5, logger: TestDatabase.logger)
            let readiness = DatabaseReadinessCheck(client: client, warmup: warmup, catalog: try TestDatabase.catalog(), logger: TestDatabase.logger)
            #expect(warmup.status == .warming(open: 0, of: 5))
            #expect(await readiness.check().ready == false)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                group.addTask { try await warmup.run() }
                defer { group.cancelAll() }
                #expect(try await eventually(timeout: .seconds(20)) { warmup.status == .warm(5) })
                // Its database check has a 1 s deadline, which a loaded machine can miss once.
                #expect(try await eventually(timeout: .seconds(20)) { await readiness.check().ready })
                let report = await readiness.check()
                #expect(report.checks["database_pool"] == "ok: 5 connections open")
                let backends = try await TestDatabase.withClient(db) { other in
                    try await other.query("SELECT count(*)::int8 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
                        .collect().first?.decode(Int64.self)
                }
                #expect((backends ?? 0) >= 5)
            }
        }
    }

    /// More connections than the pool may open (or than PostgreSQL allows) cannot all be
    /// held: readiness waits for them only until the warm-up's deadline, then goes by the
    /// database check alone.
    @Test func givesUpOnConnectionsItCannotOpen() async throws {
        try await TestDatabase.with { db async throws in
            let client = try DatabaseClientFactory.makeClient(db, poolSize: 2, logger: TestDatabase.logger)
            let warmup = PoolWarmup(client: client, connections: 3, deadline: .seconds(15), logger: TestDatabase.logger)
            try await TestDatabase.withClient(db) { probe in
                // Its own pool: the warm-up holds every connection of the other one.
                let readiness = DatabaseReadinessCheck(client: probe, warmup: warmup, catalog: try TestDatabase.catalog(), logger: TestDatabase.logger)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await client.run() }
                    group.addTask { try await warmup.run() }
                    defer { group.cancelAll() }
                    #expect(try await eventually(timeout: .seconds(20)) { warmup.status == .warming(open: 2, of: 3) })
                    let waiting = await readiness.check()
                    #expect(!waiting.ready)
                    #expect(waiting.checks["database"] == "warming", "not asked while the warm-up holds the pool")
                    #expect(waiting.checks["database_pool"] == "warming: 2 of 3 connections open")
                    #expect(try await eventually(timeout: .seconds(20)) { warmup.status == .gaveUp(open: 2, of: 3) })
                    #expect(try await eventually(timeout: .seconds(20)) { await readiness.check().ready })
                    // The connections it held were given back: the pool still answers.
                    let one = try await client.query("SELECT 1::int8").collect().first?.decode(Int64.self)
                    #expect(one == 1)
                }
            }
        }
    }

    /// PostgreSQL not there at all: the warm-up ends at its deadline instead of hanging.
    @Test func endsAtItsDeadlineWithoutADatabase() async throws {
        let nowhere = try DatabaseURL(parsing: "postgres://relay:x@127.0.0.1:9/relay?sslmode=disable")
        let client = try DatabaseClientFactory.makeClient(nowhere, poolSize: 2, logger: TestDatabase.logger)
        let warmup = PoolWarmup(client: client, connections: 2, deadline: .milliseconds(500), logger: TestDatabase.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask { try await warmup.run() }
            defer { group.cancelAll() }
            let settled = try await eventually(timeout: .seconds(10)) { warmup.status == .gaveUp(open: 0, of: 2) }
            #expect(settled)
        }
    }
}
