import Foundation
import Testing
@testable import RelayModel

@Suite("The JSON reader")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5, 3e2, 0, -0.0, 1E-2], "b": {"c": null, "d": true, "e": false}, "s": "x\"y\\z\/\n\t\u00e9\ud83d\ude00", "": ""} "#)
        #expect(value["a"]?.arrayValue?.compactMap(\.doubleValue) == [1, -2.5, 300, 0, -0.0, 0.01])
        #expect(value["a"]?.arrayValue?.compactMap(\.scalarText) == ["1", "-2.5", "3e2", "0", "-0.0", "1E-2"])
        #expect(value[path: "b.c"] == .null)
        #expect(value[path: "b.d"] == .bool(true))
        #expect(value["s"] == .string("x\"y\\z/\n\té😀"))
        #expect(value[""] == .string(""))
        #expect(try parse("42") == .number(42))
        #expect(try parse(#""top""#) == .string("top"))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([:]))
        #expect(try parse(#"{"k": 1, "k": 2}"#)["k"] == .number(2))
    }

    @Test("refuses malformed input with a position", arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "{a:1}", "'x'", "01", "1.", ".5", "-", "1e", "+1", "nul", "truex", "[1 2]",
        "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "\"\\udc00\"", "\"tab\there\"", "{\"a\" 1}", "[1]]", "1e999", "NaN",
        "1e00001", "-1E+99999", String(repeating: "9", count: 1025),
    ])
    func malformed(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try parse(text) }
    }

    @Test func numbersKeepTheirTextSoLargeIdentifiersStayDistinct() throws {
        let a = try parse("9007199254740993"), b = try parse("9007199254740992")
        #expect(a != b)
        #expect(a.scalarText == "9007199254740993")
        #expect(a.int64Value == 9_007_199_254_740_993)
        #expect(JSONValue.array([a, b]).jsonText == "[9007199254740993,9007199254740992]")
        let sku = try parse(#"{"sku": 1234567890123456789}"#)
        #expect(sku["sku"]?.scalarText == "1234567890123456789")
        #expect(try parse("1e3").int64Value == 1000)
        #expect(try parse("1.5").int64Value == nil)
        #expect(try parse("123456789012345678901234567890").int64Value == nil)
        #expect(try parse("1e-9999").doubleValue == 0)
    }

    @Test func numbersMadeHereAreValidJSON() {
        #expect(JSONNumber(Double.nan).text == "0")
        #expect(JSONNumber(-Double.infinity).text == "0")
        #expect(JSONNumber(2.5).text == "2.5")
        #expect(JSONNumber(42.0).text == "42")
        #expect(JSONNumber(Int64.min).text == "-9223372036854775808")
        #expect(JSONNumber(1e300).double == 1e300)
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xff, 0xfe, 0x22]) }
    }

    @Test func boundsNestingInsteadOfOverflowingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try parse(fine).arrayValue?.count == 1)
    }

    @Test func agreesWithFoundationOnARealisticItem() throws {
        let text = #"{"item":{"entrupy_id":"E1","status":{"result":{"id":"authentic","final":true},"flag":"none"},"n":[1.5,2,{"x":"ü"}]}}"#
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(try parse(text) == foundation)
        #expect(try parse(foundation.jsonText) == foundation)
    }
}

@Suite("The JSON writer")
struct JSONWriterTests {
    @Test func writesSortedCompactEscapedText() {
        let value: JSONValue = .object(["b": .array([.number(1), .number(2.5), .null, .bool(true)]), "a": .string("q\"\\\n\t\u{01}é/")])
        #expect(value.jsonText == #"{"a":"q\"\\\n\t\u0001é/","b":[1,2.5,null,true]}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let samples = [#"{"x":[{"y":"z"},-0.5,1e-7,123456789012]}"#, #""\u001f""#, "[]", "{}", #"{"k":"\ud83d\ude00"}"#]
        for sample in samples {
            let value = try JSONParser.parse(Array(sample.utf8))
            #expect(try JSONParser.parse(Array(value.jsonText.utf8)) == value)
        }
    }
}

@Suite("Text printed on a terminal")
struct TerminalTextTests {
    @Test func escapeSequencesAndOverridesAreShownNotRun() {
        #expect(TerminalText.printable("sku-1") == "sku-1")
        #expect(TerminalText.printable("a\u{1B}]0;owned\u{07}b") == "a\\u{1B}]0;owned\\u{7}b")
        #expect(TerminalText.printable("line\nnext\r") == "line\\u{A}next\\u{D}")
        #expect(TerminalText.printable("x\u{9B}31m") == "x\\u{9B}31m")
        #expect(TerminalText.printable("abc\u{202E}fdp.exe") == "abc\\u{202E}fdp.exe")
        #expect(TerminalText.printable("é😀") == "é😀")
    }
}
