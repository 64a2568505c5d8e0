import Foundation
import RelayCore
import Testing

/// Issue 30: the relay against a simulator that breaks, on demand, what we assume of Entrupy.
/// Each test shows the relay either works or says what differs.
@Suite("What we assume of Entrupy, broken on purpose", .timeLimit(.minutes(3)))
struct EntrupyAssumptionTests {
    /// Entrupy sends session.completed for fingerprinting sessions too: recorded, and never
    /// looked up (a lookup could only answer 404 for half an hour, then fail the event).
    @Test func aFingerprintingSessionIsRecordedWithoutALookup() async throws {
        try await ReconcileStack.with { stack async throws in
            let (status, answer) = try await stack.simulator.call(.POST, "/_sim/fingerprints", .object([
                "customer_item_id": .string("sku-fp-1"), "mode": .string("register"),
            ]))
            #expect(status == 201)
            let session = try #require(answer["entrupy_id"]?.stringValue)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM webhook_events WHERE entrupy_id = '\(session)'") == 1 })
            #expect(try await stack.count("""
                SELECT count(*) FROM webhook_events WHERE entrupy_id = '\(session)' AND state = 'unrecognised'
                  AND parse_error = '\(WebhookPayloadParser.fingerprintNote)'
                """) == 1)
            // An authentication's webhook after it is reconciled as ever, and nothing asked about the session.
            let item = try await stack.simulator.createItem("sku-fp-1", result: "authentic", final: true)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM items WHERE entrupy_id = '\(item)'") == 1 })
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE args->>'webhook_event_id' IN (SELECT id::text FROM webhook_events WHERE entrupy_id = '\(session)')") == 0)
            #expect(try await stack.count("SELECT count(*) FROM items WHERE entrupy_id = '\(session)'") == 0)
        }
    }

    /// v2's flag value reviewed_ok is a flag reviewed, and a value nobody documented a flag
    /// changed: each a transition on the timeline that rules can match, never a silent change.
    @Test func everyFlagValueIsATransition() async throws {
        try await ReconcileStack.with { stack async throws in
            let item = try await stack.simulator.createItem("sku-flags", result: "authentic", final: true)
            #expect(try await eventually { try await stack.timeline(item).contains("result.final") })
            try await stack.simulator.setFlag(item, "flagged")
            #expect(try await eventually { try await stack.timeline(item).contains("flag.raised") })
            try await stack.simulator.setFlag(item, "reviewed_ok")
            #expect(try await eventually { try await stack.timeline(item).contains("flag.reviewed") })
            try await stack.simulator.setFlag(item, "none")
            #expect(try await eventually { try await stack.timeline(item).contains("flag.changed") })
            #expect(try await stack.timeline(item) == ["item.created", "result.final", "flag.raised", "flag.reviewed", "flag.changed"])
            #expect(try await stack.count("SELECT count(*) FROM item_events WHERE entrupy_id = '\(item)' AND kind = 'flag.reviewed' AND from_value = 'flagged' AND to_value = 'reviewed_ok'") == 1)
        }
    }
}
