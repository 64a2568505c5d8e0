import Foundation
import RelayModel
import RelayDatabase
@testable import RelayQueue
@testable import RelayStore
import Testing

/// The other statements with named parameters: every name gets a value and no value goes
/// unused, so a misspelt name fails here instead of binding NULL in production.
@Suite("Store statements bind every named parameter")
struct StoreStatementBindingTests {
    static func check(_ values: NamedBindings, _ sql: NamedSQL, _ label: String) {
        #expect(values.unset(in: sql).isEmpty, "\(label): no value for \(values.unset(in: sql))")
        #expect(values.unused(in: sql).isEmpty, "\(label): values for no parameter \(values.unused(in: sql))")
    }

    @Test func theWebhookStore() {
        let body = Array(#"{"event":"session.completed","id":"e1","entrupy_id":"E1"}"#.utf8)
        let parsed = WebhookPayloadParser.parse(body: body, headers: [:], verifiedBy: .entrupy)
        let event = NewWebhookEvent(body: body, parsed: parsed, verifiedBy: .entrupy, headers: ["content-type": "application/json"],
                                    clientAddress: nil, requestID: "r1")
        let statement = PostgresWebhookEventStore.StoreStatement(events: [(event, 0)], reconcileMaxAttempts: 5, handoff: nil)
        Self.check(statement.values, PostgresWebhookEventStore.StoreStatement.named, "webhook store")
    }

    @Test func theFinishingStatementWithAndWithoutAttemptRecords() {
        let runs = [JobFinish(id: 1, attempt: 1, outcome: .completed)]
        let attempt = DeliveryAttemptWrite(deliveryID: 3, attempt: DeliveryAttempt(attempt: 1, startedAt: Date(), durationMilliseconds: 5,
                                                                                  outcome: .delivered), retryIn: nil)
        let withRecords = PostgresJobQueue.FinishStatement<DeliveryAttemptWrite>(runs: runs, records: [attempt], worker: "w")
        Self.check(withRecords.values, PostgresJobQueue.FinishStatement<DeliveryAttemptWrite>.named, "finish with attempts")
        let plain = PostgresJobQueue.FinishStatement<NoJobRecord>(runs: runs, records: [], worker: "w")
        Self.check(plain.values, PostgresJobQueue.FinishStatement<NoJobRecord>.named, "finish")
    }
}
