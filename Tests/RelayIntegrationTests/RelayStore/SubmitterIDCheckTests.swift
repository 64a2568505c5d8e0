import Foundation
import Logging
import RelayModel
import RelayStore
import Testing

/// The submitter's ID a reconcile renders its deliveries with may come from the store's memory
/// of the SDK users mirror; the commit checks it against the mirror, so a delivery never goes
/// out with an ID the mirror changed or erased meanwhile.
@Suite("The submitter's ID, remembered and checked by the commit", .timeLimit(.minutes(2)))
struct SubmitterIDCheckTests {
    static let logger = Logger(label: "submitter-id-tests")

    static func change(_ id: String, at now: Date, submitter: SubmitterLookup) -> ReconcileChange {
        let item = EntrupyItem(entrupyID: id, result: "authentic", resultFinal: true, username: submitter.username)
        var change = ReconcileChange(item: item, observedAt: now, source: .sweep, basedOn: nil,
                                     transitions: TransitionDiffer.diff(from: nil, to: item.snapshot), deliveries: [])
        change.deliveries = [PlannedDelivery(transitionIndex: 0, entrupyID: id, rule: "r", actionIndex: 0, target: "https://example.com/hook",
                                             payload: .webhook(.init(url: "https://example.com/hook", headers: [], body: "{}")), signingKeyID: nil)]
        change.submitter = submitter
        return change
    }

    @Test func aRememberedIDTheMirrorChangedIsRefusedThenReadAgain() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            #expect(try await store.uniqueUserID(username: "dana-entrupy") == nil, "not in the mirror")
            // Authorized since: the store's memory still says none.
            try await client.query("INSERT INTO sdk_users (unique_user_id, username) VALUES ('dana-001', 'dana-entrupy')", logger: Self.logger)
            #expect(try await store.uniqueUserID(username: "dana-entrupy") == nil, "answered from memory")
            let now = try await store.clock()
            let stale = SubmitterLookup(username: "dana-entrupy", uniqueUserID: nil)
            #expect(try await store.commit(Self.change("ENT-SUB-1", at: now, submitter: stale), followUps: nil) == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM items") == 0, "refused: nothing written")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM deliveries") == 0)
            // The refusal made the store forget its answer: the next lookup reads the mirror.
            #expect(try await store.uniqueUserID(username: "dana-entrupy") == "dana-001")
            let current = SubmitterLookup(username: "dana-entrupy", uniqueUserID: "dana-001")
            let written = try #require(try await store.commit(Self.change("ENT-SUB-1", at: now, submitter: current), followUps: nil))
            #expect(written.deliveries == 1)

            // Erased from the mirror: the remembered ID no longer holds either.
            try await client.query("DELETE FROM sdk_users WHERE username = 'dana-entrupy'", logger: Self.logger)
            #expect(try await store.commit(Self.change("ENT-SUB-2", at: now, submitter: current), followUps: nil) == nil)
            #expect(try await store.uniqueUserID(username: "dana-entrupy") == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE entrupy_id = 'ENT-SUB-2'") == 0)
        }
    }

    /// Authorized again under a new ID: the remembered one is refused too.
    @Test func anIDReplacedInTheMirrorIsRefusedThenReadAgain() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            try await client.query("INSERT INTO sdk_users (unique_user_id, username) VALUES ('erin-001', 'erin-entrupy')", logger: Self.logger)
            #expect(try await store.uniqueUserID(username: "erin-entrupy") == "erin-001")
            try await client.query("UPDATE sdk_users SET unique_user_id = 'erin-002' WHERE username = 'erin-entrupy'", logger: Self.logger)
            let now = try await store.clock()
            let remembered = SubmitterLookup(username: "erin-entrupy", uniqueUserID: try await store.uniqueUserID(username: "erin-entrupy"))
            #expect(remembered.uniqueUserID == "erin-001")
            #expect(try await store.commit(Self.change("ENT-SUB-3", at: now, submitter: remembered), followUps: nil) == nil)
            #expect(try await store.uniqueUserID(username: "erin-entrupy") == "erin-002")
        }
    }
}
