import Foundation
import Logging
import PostgresNIO
import RelayStore
import Testing

/// An item's detail is read from one snapshot: what commits while it is being read shows in
/// none of its parts, rather than in the parts read after the commit.
@Suite("Item detail reads one snapshot", .timeLimit(.minutes(1)))
struct ItemDetailSnapshotTests {
    static let logger = Logger(label: "item-detail-snapshot-tests")

    @Test func aResubmissionCommittedWhileTheDetailIsReadIsNotInIt() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            try await client.query("""
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, username, fetched_at, raw)
                VALUES ('ENT-SNAP', 'sku-snap', 'authentic', true, 'snap-user', now(), '{}')
                """, logger: Self.logger)
            let items = PostgresItemStore(client: client, logger: Self.logger)
            try await client.withConnection { other async throws in
                // The detail reads the item, then waits at the SDK users (read before the
                // resubmissions) until this transaction, which adds a resubmission, commits.
                try await other.query("BEGIN", logger: Self.logger)
                try await other.query("LOCK TABLE sdk_users IN ACCESS EXCLUSIVE MODE", logger: Self.logger)
                let detail = Task { try await items.detail("ENT-SNAP") }
                #expect(try await TestDatabase.aSessionWaitsOnALock(db))
                try await other.query("""
                    INSERT INTO items (entrupy_id, customer_item_id, result, result_final, fetched_at, raw)
                    VALUES ('ENT-SNAP-2', 'sku-snap', 'authentic', true, now(), '{}')
                    """, logger: Self.logger)
                try await other.query("COMMIT", logger: Self.logger)
                let read = try #require(try await detail.value)
                #expect(read.entrupyID == "ENT-SNAP")
                #expect(read.resubmissions.isEmpty)
            }
            // Read afresh, it is there.
            #expect(try await items.detail("ENT-SNAP")?.resubmissions.map(\.entrupyID) == ["ENT-SNAP-2"])
        }
    }
}
