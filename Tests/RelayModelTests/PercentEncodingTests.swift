import RelayModel
import Testing

@Suite("Percent-encoding")
struct PercentEncodingTests {
    @Test func identifiersCannotClimbThePath() {
        #expect(PercentEncoding.pathSegment("..") == "%2E%2E")
        #expect(PercentEncoding.pathSegment(".") == "%2E")
        #expect(PercentEncoding.pathSegment("sku.1") == "sku.1")
        #expect(PercentEncoding.pathSegment("../admin") == "..%2Fadmin")
        #expect(PercentEncoding.pathSegment("a b/c?d#e") == "a%20b%2Fc%3Fd%23e")
    }

    @Test func everythingButUnreservedIsEscapedAsUTF8() throws {
        #expect(PercentEncoding.escape("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.escape("é+&=\u{0}") == "%C3%A9%2B%26%3D%00")
        let pairs = [("q", "a b&c=d"), ("ü", "%")]
        #expect(try FormURLEncoding.decode(FormURLEncoding.encode(pairs)).map { [$0.0, $0.1] } == pairs.map { [$0.0, $0.1] })
    }
}
