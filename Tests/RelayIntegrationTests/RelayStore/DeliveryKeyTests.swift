import Crypto
import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayStore
import Testing

/// A delivery's idempotency key (webhook-id, Message-ID) is derived from what it is, so the same
/// transition derived again after a restore is sent under the same key, and a genuine repeat
/// under a new one.
@Suite("Delivery idempotency keys", .timeLimit(.minutes(2)))
struct DeliveryKeyTests {
    static let logger = Logger(label: "delivery-key-tests")

    /// The key as migration 20 defines it, computed apart from the SQL.
    static func key(salt: String, entrupyID: String, kind: TransitionKind, occurrence: Int, rule: String, action: Int) -> String {
        let text = [salt, entrupyID, kind.rawValue, String(occurrence), rule, String(action)].joined(separator: "\u{1F}")
        let hex = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        return "dlv_" + hex.prefix(32)
    }

    /// Commits `item` over whatever is stored, with a delivery (rule `r`, actions 0 and 1) for
    /// each of its transitions.
    static func commit(_ item: EntrupyItem, _ store: PostgresReconcileStore) async throws {
        let basis = try await store.state(of: item.entrupyID)
        let transitions = TransitionDiffer.diff(from: basis?.snapshot, to: item.snapshot)
        let deliveries = transitions.indices.flatMap { index in
            (0..<2).map { action in
                PlannedDelivery(transitionIndex: index, entrupyID: item.entrupyID, rule: "r", actionIndex: action, target: "https://example.com",
                                payload: .webhook(.init(url: "https://example.com/hook", headers: [], body: "{}")), signingKeyID: nil)
            }
        }
        let change = ReconcileChange(item: item, observedAt: try await store.clock(), source: .sweep, basedOn: basis,
                                     transitions: transitions, deliveries: deliveries)
        #expect(try await store.commit(change, followUps: nil) != nil)
    }

    @Test func aRepeatedFlagGetsANewKeyAndEveryKeyFollowsFromWhatItIs() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let id = "ENT-KEY-1"
            for flag in ["none", "flagged", "none", "flagged"] {
                try await Self.commit(EntrupyItem(entrupyID: id, result: "needs_review", resultFinal: false, flag: flag), store)
            }
            var salt = ""
            for try await value in try await client.query("SELECT key_salt FROM installation", logger: Self.logger).decode(String.self) {
                salt = value
            }
            #expect(salt.count == 32)
            let rows = try await client.query("""
                SELECT e.kind, d.action_index, d.idempotency_key FROM deliveries d JOIN item_events e ON e.id = d.item_event_id
                ORDER BY d.id
                """, logger: Self.logger)
            var keys: [(TransitionKind, Int, String)] = []
            for try await (kind, action, key) in rows.decode((String, Int, String).self) {
                keys.append((try #require(TransitionKind(rawValue: kind)), action, key))
            }
            let raised = keys.filter { $0.0 == .flagRaised }
            #expect(raised.count == 4, "two raisings, two actions each: \(keys.map(\.0))")
            var seen: [TransitionKind: Int] = [:]
            for (kind, action, key) in keys {
                if action == 0 { seen[kind, default: 0] += 1 }
                #expect(key == Self.key(salt: salt, entrupyID: id, kind: kind, occurrence: seen[kind] ?? 0, rule: "r", action: action),
                        "\(kind) action \(action)")
            }
            #expect(Set(keys.map(\.2)).count == keys.count, "every delivery its own key")
        }
    }
}
