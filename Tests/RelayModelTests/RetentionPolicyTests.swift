import Foundation
import RelayModel
import Testing

@Suite("Retention policy and personal data")
struct RetentionPolicyTests {
    @Test func cutoffsCountBackFromNowAndZeroKeepsForEver() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let policy = RetentionPolicy(days: [.webhookBodies: 30, .webhookEvents: 0])
        #expect(policy.cutoff(.webhookBodies, now: now) == now.addingTimeInterval(-30 * 86_400))
        #expect(policy.cutoff(.webhookEvents, now: now) == nil)
        #expect(RetentionPolicy.standard.problems.isEmpty)
    }

    @Test func payloadsMayNotOutliveTheirMetadata() {
        let longer = RetentionPolicy(days: [.webhookBodies: 90, .webhookEvents: 30])
        #expect(longer.problems == ["webhook_bodies (90 days) outlive their webhook_events (30 days): they would go with them; "
                                    + "set webhook_bodies to at most 30"])
        let forEver = RetentionPolicy(days: [.webhookBodies: 0, .webhookEvents: 30])
        #expect(forEver.problems.count == 1 && forEver.problems[0].contains("webhook_bodies for ever"))
        #expect(RetentionPolicy(days: [.webhookBodies: 30, .webhookEvents: 30, .deliveryPayloads: 90, .deliveryAttempts: 10]).problems.isEmpty,
                "a delivery's payload is on its row, which no setting removes")
    }

    @Test func erasingRemovesEveryPersonalKeyAtAnyDepthAndKeepsTheItem() throws {
        let item = try JSONValue.parse(Array("""
            {"entrupy_id": "E1", "status": {"result": {"id": "authentic"}},
             "owner": {"user": {"username": "alice", "email": "a@example.com"}, "user_id": 42, "organization": {"name": "Shop"}},
             "text_fields": [{"content": "sku-1"}], "people": [{"first_name": "Alice", "last_name": null}], "username": "alice"}
            """.utf8))
        let erased = PersonalData.erasing(item)
        #expect(erased[path: "owner.user"] == PersonalData.marker)
        #expect(erased[path: "owner.user_id"] == PersonalData.marker)
        #expect(erased["username"] == PersonalData.marker)
        #expect(erased["people"]?.arrayValue?.first?["first_name"] == PersonalData.marker)
        #expect(erased["people"]?.arrayValue?.first?["last_name"] == .null, "nothing there, nothing to mark")
        #expect(erased[path: "owner.organization.name"] == .string("Shop"))
        #expect(erased[path: "status.result.id"] == .string("authentic"))
        #expect(erased["text_fields"] == item["text_fields"])
        #expect(!erased.jsonText.contains("alice"))
        #expect(PersonalData.erasing(erased) == erased, "erasing twice changes nothing more")

        let parsed = EntrupyItem(entrupyID: "E1", result: "authentic", resultFinal: true, username: "alice", raw: item).erasingPeople()
        #expect(parsed.username == nil && parsed.result == "authentic" && parsed.raw == erased)
    }

    @Test func anErasureKeyMustBeOneAndWellFormed() throws {
        #expect(throws: ErasureSelector.Invalid.self) { try ErasureSelector.parse(uniqueUserID: nil, email: nil, customerItemID: nil) }
        #expect(throws: ErasureSelector.Invalid.self) { try ErasureSelector.parse(uniqueUserID: "a", email: "a@b", customerItemID: nil) }
        #expect(throws: ErasureSelector.Invalid.self) { try ErasureSelector.parse(uniqueUserID: nil, email: "no-at-sign", customerItemID: nil) }
        #expect(throws: ErasureSelector.Invalid.self) { try ErasureSelector.parse(uniqueUserID: nil, email: nil, customerItemID: "a\u{0}b") }
        #expect(throws: ErasureSelector.Invalid.self) { try ErasureSelector.parse(uniqueUserID: String(repeating: "x", count: 41), email: nil, customerItemID: nil) }
        #expect(try ErasureSelector.parse(uniqueUserID: nil, email: nil, customerItemID: "sku-1") == .customerItemID("sku-1"))
        #expect(try ErasureSelector.parse(uniqueUserID: nil, email: nil, username: "org-user-7", customerItemID: nil) == .username("org-user-7"))
        #expect(throws: ErasureSelector.Invalid.self) { try ErasureSelector.parse(uniqueUserID: nil, email: nil, username: "", customerItemID: nil) }
    }
}
