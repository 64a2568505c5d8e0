import Foundation
import PostgresNIO
import RelayModel
import RelayStore
import Testing

/// Issue 42, finding 2, as stored: the keys migration 0033 moves from origins to endpoints, the
/// probe an open endpoint picks, and a state this release does not know.
@Suite("Stored targets", .timeLimit(.minutes(2)))
struct PostgresTargetHealthStoreTests {
    static let secretURL = "https://Hooks.example.com/services/T0/B0/SECRETsecret?x=1"

    /// Runs set-up statements one at a time (the extended protocol takes one per query).
    static func execute(_ db: DatabaseURL, _ statements: [String]) async throws {
        for statement in statements { try await TestDatabase.execute(db, statement) }
    }

    static func heldTargets(_ db: DatabaseURL) async throws -> [String: String] {
        try await TestDatabase.withClient(db) { client in
            let rows = try await client.query("SELECT rule, held_target FROM deliveries", logger: TestDatabase.logger)
            var found: [String: String] = [:]
            for try await (rule, target) in rows.decode((String, String).self) { found[rule] = target }
            return found
        }
    }

    static func targets(_ db: DatabaseURL) async throws -> [String: (String, Int)] {
        try await TestDatabase.withClient(db) { client in
            let rows = try await client.query("SELECT key, state, consecutive_failures FROM delivery_targets", logger: TestDatabase.logger)
            var found: [String: (String, Int)] = [:]
            for try await (key, state, failures) in rows.decode((String, String, Int).self) { found[key] = (state, failures) }
            return found
        }
    }

    /// Held deliveries keyed by their origin before the upgrade move to their endpoint's key, each
    /// endpoint starting as its origin was; an origin that holds nothing more is gone, unless an
    /// operator disabled it.
    @Test func theUpgradeMovesHeldDeliveriesToTheirEndpoints() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let all = try TestDatabase.catalog()
            let before = MigrationCatalog(migrations: all.migrations.filter { $0.version < 33 }, directory: "")
            try await TestDatabase.withClient(db) { client in
                _ = try await Migrator(client: client, logger: TestDatabase.logger).migrate(before)
            }
            try await Self.execute(db, ["INSERT INTO operational_events (kind, target, data) VALUES ('target.opened', 'x', '{}')", """
                INSERT INTO delivery_targets (key, state, next_probe_at, probe_wait_ms, consecutive_failures, failing_since, disabled_by) VALUES
                    ('https://hooks.example.com', 'open', now() + interval '30 seconds', 30000, 12, now(), NULL),
                    ('https://quiet.example.com', 'open', now(), 30000, 3, now(), NULL),
                    ('https://ops.example.com', 'disabled', now(), 0, 0, NULL, 'token ops')
                """, """
                INSERT INTO deliveries (operational_event_id, rule, action_index, channel, target, payload, state, held_target, held_since) VALUES
                    (1, 'secret', 0, 'webhook', 'https://Hooks.example.com/***', '{"url": "\(Self.secretURL)", "body": "{}"}', 'failed',
                     'https://hooks.example.com', now()),
                    (1, 'other', 0, 'webhook', 'https://hooks.example.com/***', '{"url": "https://hooks.example.com/other#x", "body": "{}"}',
                     'pending', 'https://hooks.example.com', now()),
                    (1, 'root', 0, 'webhook', 'https://hooks.example.com', '{"url": "https://hooks.example.com/", "body": "{}"}',
                     'pending', 'https://hooks.example.com', now())
                """])
            try await TestDatabase.withClient(db) { client in
                _ = try await Migrator(client: client, logger: TestDatabase.logger).migrate(all)
            }
            let secret = TargetKey.endpoint(of: Self.secretURL), other = TargetKey.endpoint(of: "https://hooks.example.com/other")
            #expect(secret.hasPrefix("https://hooks.example.com/***#") && secret != other)
            #expect(try await Self.heldTargets(db) == ["secret": secret, "other": other, "root": "https://hooks.example.com"])
            let targets = try await Self.targets(db)
            #expect(Set(targets.keys) == [secret, other, "https://hooks.example.com", "https://ops.example.com"])
            #expect(targets[secret]?.0 == "open" && targets[secret]?.1 == 12)
            #expect(targets[other]?.0 == "open")
            #expect(targets["https://ops.example.com"]?.0 == "disabled")
            #expect(!targets.keys.contains { $0.lowercased().contains("secret") })
        }
    }

    /// An open endpoint's probe is a held delivery that did not fail for its own reasons, even
    /// when one that did is older.
    @Test func theProbeIsADeliveryThatDidNotFailOnItsOwn() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let key = TargetKey.endpoint(of: "https://partner.example/hook")
            try await Self.execute(db, [
                "INSERT INTO operational_events (kind, target, data) VALUES ('target.opened', 'x', '{}')",
                "INSERT INTO delivery_targets (key, state, next_probe_at, probe_wait_ms) VALUES ('\(key)', 'open', now() - interval '1 second', 1000)",
                """
                INSERT INTO deliveries (operational_event_id, rule, action_index, channel, target, payload, state, attempts, held_target,
                                        held_since, own_failure) VALUES
                    (1, 'refused', 0, 'webhook', 'https://partner.example/***', '{"url": "https://partner.example/hook", "body": "{}"}',
                     'failed', 1, '\(key)', now(), true),
                    (1, 'fresh', 0, 'webhook', 'https://partner.example/***', '{"url": "https://partner.example/hook", "body": "{}"}',
                     'pending', 0, '\(key)', now(), false)
                """])
            let fresh = try await TestDatabase.scalar(db, "SELECT id FROM deliveries WHERE rule = 'fresh'")
            let picked = try await PostgresTargetHealthStore(client: client, logger: TestDatabase.logger).startProbes(lease: .seconds(30))
            #expect(picked == [Int64(fresh)])
        }
    }

    /// An open endpoint's probe is a held delivery that would make an attempt now: not one in its
    /// rule's quiet hours, nor one held behind an earlier delivery of its item (either would snooze
    /// unattempted, its lease expire, and the same one be picked again all night), even when older.
    @Test func theProbeIsNoDeliveryInQuietHoursOrHeldBehindAnother() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let key = TargetKey.endpoint(of: "https://partner.example/hook")
            let row = "'webhook', 'https://partner.example/***', '{\"url\": \"https://partner.example/hook\", \"body\": \"{}\"}', 'pending'"
            try await Self.execute(db, [
                "INSERT INTO operational_events (kind, target, data) VALUES ('target.opened', 'x', '{}')",
                "INSERT INTO delivery_targets (key, state, next_probe_at, probe_wait_ms) VALUES ('\(key)', 'open', now() - interval '1 second', 1000)",
                """
                INSERT INTO deliveries (operational_event_id, rule, action_index, channel, target, payload, state, held_target, held_since,
                                        quiet_until, held_behind) VALUES
                    (1, 'night', 0, \(row), '\(key)', now(), now() + interval '1 hour', NULL),
                    (1, 'behind', 0, \(row), '\(key)', now(), NULL, 1),
                    (1, 'dawn', 0, \(row), '\(key)', now(), now() - interval '1 minute', NULL)
                """])
            let dawn = try await TestDatabase.scalar(db, "SELECT id FROM deliveries WHERE rule = 'dawn'")
            let store = PostgresTargetHealthStore(client: client, logger: TestDatabase.logger)
            #expect(try await store.startProbes(lease: .seconds(30)) == [Int64(dawn)], "a quiet window that has ended holds nothing")
        }
    }

    /// An operator who disables a host (`targets disable https://partner.example`) holds every
    /// endpoint on it, paths that exist now or later, under the host's key; the breaker's own
    /// disable of a host's root holds only the root. Enabled again, the host is healthy.
    @Test func anOperatorsDisabledHostHoldsEveryEndpointOnIt() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresTargetHealthStore(client: client, logger: TestDatabase.logger)
            let path = TargetKey.endpoint(of: "https://partner.example/hooks/orders")
            try await TestDatabase.execute(db, """
                INSERT INTO delivery_targets (key, state, disabled_by) VALUES
                    ('https://partner.example', 'disabled', 'token ops'), ('https://flaky.example', 'disabled', 'breaker')
                """)
            let (held, _) = try await store.health(key: path)
            #expect(held?.key == "https://partner.example" && held?.state == .disabled)
            let (other, _) = try await store.health(key: TargetKey.endpoint(of: "https://flaky.example/hook"))
            #expect(other == nil, "a host the breaker disabled holds its root only")
            try await TestDatabase.execute(db, "UPDATE delivery_targets SET state = 'healthy', disabled_by = NULL WHERE key = 'https://partner.example'")
            let (enabled, _) = try await store.health(key: path)
            #expect(enabled == nil)
        }
    }

    /// A state this release does not know (written by a newer one, or by hand) is an error that
    /// names the row, never a healthy target.
    @Test func anUnknownStoredStateIsAnErrorNamingTheRow() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            try await TestDatabase.execute(db, "ALTER TABLE delivery_targets DROP CONSTRAINT delivery_targets_state_check")
            let id = try await TestDatabase.scalar(db, "INSERT INTO delivery_targets (key, state) VALUES ('https://partner.example', 'paused') RETURNING id")
            let store = PostgresTargetHealthStore(client: client, logger: TestDatabase.logger)
            let reads: [@Sendable () async throws -> Void] = [{ _ = try await store.health(key: "https://partner.example") }, { _ = try await store.list() }]
            for read in reads {
                do {
                    try await read()
                    Issue.record("an unknown state was read without an error")
                } catch {
                    let text = String(describing: error)
                    #expect(text.contains("delivery_targets row \(id)") && text.contains("https://partner.example") && text.contains("paused"), "\(text)")
                }
            }
        }
    }
}
