import Foundation
import RelayModel

/// A fresh database, the simulator, and a relay (receiver plus worker) wired to each other:
/// the simulator's webhooks go to the relay, the relay's API calls go to the simulator.
struct ReconcileStack: Sendable {
    let database: DatabaseURL
    let simulator: TestSimulator
    let relay: TestRelay

    static let fastEnv = [
        "ENTRUPY_RELAY_JOB_POLL_MS": "100", "ENTRUPY_RELAY_JOB_BACKOFF_BASE_MS": "100", "ENTRUPY_RELAY_ENTRUPY_API_RATE": "1000",
        // Tests that want the sync by search turn it on; elsewhere a pass at start-up would race the test.
        "ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "0",
    ]

    static func with<T: Sendable>(env: [String: String] = [:], simulatorRate: Double = 0, worker: Bool = true,
                                  _ body: @escaping @Sendable (ReconcileStack) async throws -> T) async throws -> T {
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            return try await TestSimulator.with(webhookURL: "http://127.0.0.1:\(port)/webhooks/entrupy") { sim async throws in
                try await sim.configure(["rate_limit_per_second": .number(JSONNumber(simulatorRate))])
                let merged = fastEnv.merging(env) { _, new in new }
                return try await TestRelay.with(database: db, env: merged, simulator: sim, port: port, worker: worker) { relay async throws in
                    try await body(ReconcileStack(database: db, simulator: sim, relay: relay))
                }
            }
        }
    }

    func count(_ sql: String) async throws -> Int { try await relay.count(sql) }

    /// The item's timeline kinds in order.
    func timeline(_ entrupyID: String) async throws -> [String] {
        try await TestDatabase.withClient(database) { client in
            let rows = try await client.query("SELECT kind FROM item_events WHERE entrupy_id = \(entrupyID) ORDER BY id", logger: TestDatabase.logger)
            var kinds: [String] = []
            for try await kind in rows.decode(String.self) { kinds.append(kind) }
            return kinds
        }
    }

    /// Waits until the stored item matches.
    func waitFor(_ entrupyID: String, result: String? = nil, flag: String? = nil, timeout: Duration = .seconds(15)) async throws -> Bool {
        try await eventually(timeout: timeout) {
            var sql = "SELECT count(*) FROM items WHERE entrupy_id = '\(entrupyID)'"
            if let result { sql += " AND result = '\(result)'" }
            if let flag { sql += " AND flag = '\(flag)'" }
            return try await count(sql) == 1
        }
    }

    /// Waits until no reconcile job is left to run.
    func waitForIdleQueue(timeout: Duration = .seconds(20)) async throws -> Bool {
        try await eventually(timeout: timeout) {
            try await count("SELECT count(*) FROM jobs WHERE state IN ('available', 'running', 'retryable')") == 0
        }
    }
}
