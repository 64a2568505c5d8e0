import RelayCore
import Testing

@Suite struct ChangeCursorTests {
    @Test func aCursorIsTwoNumbersAndReadsBackAsItself() throws {
        let cursor = try ChangeCursor.parse("9999999999999999999.999999999999999999")
        #expect(cursor == ChangeCursor(transaction: 9_999_999_999_999_999_999, id: 999_999_999_999_999_999))
        #expect(try ChangeCursor.parse(cursor.description) == cursor)
        #expect(try ChangeCursor.parse("0.0") == .start)
        #expect(try ChangeCursor.parse("007.010") == ChangeCursor(transaction: 7, id: 10))
    }

    @Test("anything else is refused", arguments: [
        "", ".", "1", "1.", ".1", "1.2.3", "a.b", "-1.2", "1.-2", "+1.2", " 1.2", "1.2 ", "1,2", "1.2\u{0}",
        "18446744073709551616.1", "1.9223372036854775808", "18446744073709551615.1", "1.9999999999999999999", "١.٢", "1e3.2", String(repeating: "9", count: 5_000) + ".1",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: ChangeCursor.Invalid.self) { try ChangeCursor.parse(text) }
    }

    @Test func theOrderIsTransactionThenID() {
        #expect(ChangeCursor(transaction: 5, id: 100) < ChangeCursor(transaction: 6, id: 1))
        #expect(ChangeCursor(transaction: 6, id: 1) < ChangeCursor(transaction: 6, id: 2))
    }
}
