import Testing
@testable import RelayModel

/// Text from outside, in the forms c765048 let through (the second security review).
@Suite("Hostile text: CSV cells and IP literals")
struct HostileTextTests {
    /// In a `;` locale `x;=1+1` is two cells, the second a formula; a leading space hid one too.
    @Test(arguments: [
        ("x;=1+1", "\"x;=1+1\""),
        ("a\tb", "\"a\tb\""),
        ("  =HYPERLINK(\"http://evil\")", "\"'  =HYPERLINK(\"\"http://evil\"\")\""),
        (" +1", "' +1"),
        ("\u{A0}@SUM(A1)", "'\u{A0}@SUM(A1)"),
        ("\u{FF1D}1+1", "'\u{FF1D}1+1"),
        ("\n=1", "\"'\n=1\""),
        ("plain", "plain"),
        ("a b", "a b"),
    ])
    func csvCellsNeitherSplitNorRun(raw: String, cell: String) {
        #expect(CSVRow.escape(raw) == cell)
    }

    /// Digits only in ASCII, no sign, and a zone only on IPv6: glibc refused these by luck.
    @Test(arguments: ["+1.2.3.4", "1.+2.3.4", "10.0.0.1%eth0", "١٠.٠.٠.١", "1.2.3.4%", "::+1", "fe80::1%", "fe80::1%e th0",
                      "+0::1", "::ffff:+1.2.3.4"])
    func lenientLiteralsAreRefused(text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test func strictLiteralsStillParse() {
        #expect(IPAddress("fe80::1%eth0") != nil)
        #expect(IPAddress("10.0.0.1")?.description == "10.0.0.1")
        #expect(IPAddress("::FFFF:10.0.0.1")?.description == "10.0.0.1")
    }
}
