import RelayCore
import Testing

@Suite struct ChangeCursorTests {
    @Test func aCursorIsTwoNumbersAndReadsBackAsItself() throws {
        let cursor = try ChangeCursor.parse("18446744073709551615.9223372036854775807")
        #expect(cursor == ChangeCursor(transaction: .max, id: .max))
        #expect(try ChangeCursor.parse(cursor.description) == cursor)
        #expect(try ChangeCursor.parse("0.0") == .start)
        #expect(try ChangeCursor.parse("007.010") == ChangeCursor(transaction: 7, id: 10))
    }

    @Test("anything else is refused", arguments: [
        "", ".", "1", "1.", ".1", "1.2.3", "a.b", "-1.2", "1.-2", "+1.2", " 1.2", "1.2 ", "1,2", "1.2\u{0}",
        "18446744073709551616.1", "1.9223372036854775808", "١.٢", "1e3.2", String(repeating: "9", count: 5_000) + ".1",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: ChangeCursor.Invalid.self) { try ChangeCursor.parse(text) }
    }

    @Test func theOrderIsTransactionThenID() {
        #expect(ChangeCursor(transaction: 5, id: 100) < ChangeCursor(transaction: 6, id: 1))
        #expect(ChangeCursor(transaction: 6, id: 1) < ChangeCursor(transaction: 6, id: 2))
    }
}
