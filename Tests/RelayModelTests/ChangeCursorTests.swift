import RelayModel
import Testing

@Suite struct ChangeCursorTests {
    @Test func aCursorIsTwoNumbersAndReadsBackAsItself() throws {
        let cursor = try ChangeCursor.parse("9999999999999999999.999999999999999999")
        #expect(cursor == ChangeCursor(transaction: 9_999_999_999_999_999_999, id: 999_999_999_999_999_999))
        #expect(try ChangeCursor.parse(cursor.description) == cursor)
        #expect(try ChangeCursor.parse("0.0") == .start)
        #expect(try ChangeCursor.parse("007.010") == ChangeCursor(transaction: 7, id: 10))
    }

    @Test func aCursorNamesItsHistory() throws {
        let text = "18446744073709551615.4294967295.9999999999999999999.999999999999999999"
        let cursor = try ChangeCursor.parse(text)
        #expect(cursor.history == ChangeFeedHistory(system: .max, timeline: .max))
        #expect(cursor.transaction == 9_999_999_999_999_999_999 && cursor.id == 999_999_999_999_999_999)
        #expect(cursor.description == text)
        #expect(try ChangeCursor.parse("7301.1.740.2") == ChangeCursor(transaction: 740, id: 2, history: ChangeFeedHistory(system: 7301, timeline: 1)))
        // PostgreSQL shows a system identifier past 2^63 as a negative bigint; the cursor keeps the same 64 bits.
        #expect(ChangeFeedHistory(systemIdentifier: -1, timeline: 1).system == .max)
        #expect(try ChangeCursor.parse("0.0").isStart && ChangeCursor.parse("5.1.0.0").isStart)
    }

    @Test("anything else is refused", arguments: [
        "", ".", "1", "1.", ".1", "1.2.3", "a.b", "-1.2", "1.-2", "+1.2", " 1.2", "1.2 ", "1,2", "1.2\u{0}",
        "18446744073709551616.1", "1.9223372036854775808", "18446744073709551615.1", "1.9999999999999999999", "١.٢", "1e3.2", String(repeating: "9", count: 5_000) + ".1",
        "1.2.3.4.5", "1.2.3.", ".1.2.3", "18446744073709551616.1.2.3", "1.4294967296.2.3", "123456789012345678901.1.2.3",
        "1.12345678901.2.3", "1.1.18446744073709551616.1", "1.1.1.9223372036854775808", "1..2.3", "1.2.3.4\u{0}",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: ChangeCursor.Invalid.self) { try ChangeCursor.parse(text) }
    }

    @Test func theOrderIsTransactionThenID() {
        #expect(ChangeCursor(transaction: 5, id: 100) < ChangeCursor(transaction: 6, id: 1))
        #expect(ChangeCursor(transaction: 6, id: 1) < ChangeCursor(transaction: 6, id: 2))
    }
}
