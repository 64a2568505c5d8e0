import Foundation
import RelayModel
import Testing

@Suite struct DeliveryFilterTests {
    @Test func deadByDefaultAndOnlyWhatWasGivenIsRecorded() throws {
        let filter = try DeliveryFilter.parse(state: nil, rule: "partner", target: nil, item: nil,
                                              since: Date(timeIntervalSince1970: 1_764_547_200), until: nil)
        #expect(filter.state == .dead)
        #expect(filter.recorded == ["state": "dead", "rule": "partner", "since": "2025-12-01T00:00:00.000Z"])
        #expect(try DeliveryFilter.parse(state: "failed", rule: nil, target: nil, item: nil, since: nil, until: nil).state == .failed)
    }

    @Test("refused, naming the field", arguments: [
        ("state", "delivered"), ("state", "pending"), ("state", "DEAD"), ("rule", ""), ("target", "a\u{7}b"),
        ("item", String(repeating: "x", count: 257)), ("until", "before since"),
    ])
    func refused(_ field: String, _ value: String) {
        let since = Date(timeIntervalSince1970: 1_000), until = Date(timeIntervalSince1970: 500)
        #expect(throws: DeliveryFilter.Invalid.self) {
            try DeliveryFilter.parse(state: field == "state" ? value : nil, rule: field == "rule" ? value : nil,
                                     target: field == "target" ? value : nil, item: field == "item" ? value : nil,
                                     since: field == "until" ? since : nil, until: field == "until" ? until : nil)
        }
        do {
            _ = try DeliveryFilter.parse(state: field == "state" ? value : nil, rule: field == "rule" ? value : nil,
                                         target: field == "target" ? value : nil, item: field == "item" ? value : nil,
                                         since: field == "until" ? since : nil, until: field == "until" ? until : nil)
        } catch {
            #expect(error.field == field)
        }
    }
}
