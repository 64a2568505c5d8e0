import Foundation
import PostgresNIO
import RelayDatabase
import RelayModel
import RelayStore
import Testing

/// A reconcile's first read takes the item's fetch lease in the same round trip: by the key the
/// worker's lock uses, only when the event is still to reconcile and nobody holds the lease.
@Suite("The pending read takes the fetch lease", .timeLimit(.minutes(2)))
struct PendingLeaseReadTests {
    static func event(_ id: String, entrupyID: String?, customerItemID: String?) -> NewWebhookEvent {
        var fields = [#""event":"session.completed""#, #""id":"\#(id)""#]
        if let entrupyID { fields.append(#""entrupy_id":"\#(entrupyID)""#) }
        if let customerItemID { fields.append(#""customer_item_id":"\#(customerItemID)""#) }
        let body = Array("{\(fields.joined(separator: ","))}".utf8)
        return NewWebhookEvent(body: body, parsed: WebhookPayloadParser.parse(body: body, headers: [:], verifiedBy: .entrupy),
                               verifiedBy: .entrupy, headers: ["content-type": "application/json"], clientAddress: nil, requestID: id)
    }

    @Test func takesTheLeaseByTheLocksKeyOnlyWhenFreeAndStillToReconcile() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresWebhookEventStore(client: client, logger: TestDatabase.logger)
            let leases = PostgresFetchLeases(client: client, logger: TestDatabase.logger, duration: .seconds(30))
            let stored = try await store.store([Self.event("a", entrupyID: "E1", customerItemID: "SKU-1"),
                                                Self.event("b", entrupyID: nil, customerItemID: "SKU-2"),
                                                Self.event("c", entrupyID: "E1", customerItemID: nil)])
            let (a, b, c) = (stored[0].id, stored[1].id, stored[2].id)
            let first = UUID()
            let read = try #require(try await store.pending(id: a, leasingFor: first, duration: .seconds(30)))
            #expect(read.event.entrupyID == "E1")
            #expect(read.leasedKey == FetchLease.entrupyIDPrefix + "E1", "by Entrupy ID when the event has one")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_fetch_leases WHERE item_key = 'id:E1' AND holder = '\(first)'") == 1)
            // Held: another read of the same item gets the event, not the lease.
            let second = try #require(try await store.pending(id: c, leasingFor: UUID(), duration: .seconds(30)))
            #expect(second.event.id == c && second.leasedKey == nil)
            #expect(try await leases.take("id:E1") == nil, "the read's lease holds against a take too")
            // By customer item ID when there is no Entrupy ID.
            #expect(try await store.pending(id: b, leasingFor: UUID(), duration: .seconds(30))?.leasedKey == FetchLease.customerItemIDPrefix + "SKU-2")
            // Released, it is free again; a processed event takes none.
            try await leases.release("id:E1", holder: first)
            _ = try await TestDatabase.scalar(db, "WITH u AS (UPDATE webhook_events SET state = 'processed' WHERE id = \(c) RETURNING 1) SELECT count(*) FROM u")
            let processed = try #require(try await store.pending(id: c, leasingFor: UUID(), duration: .seconds(30)))
            #expect(processed.event.state == .processed && processed.leasedKey == nil)
            #expect(try await store.pending(id: a, leasingFor: UUID(), duration: .seconds(30))?.leasedKey == "id:E1")
            #expect(try await store.pending(id: 999_999, leasingFor: UUID(), duration: .seconds(30)) == nil)
        }
    }
}
