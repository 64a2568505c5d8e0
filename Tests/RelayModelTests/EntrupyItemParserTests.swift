import Foundation
import Testing
@testable import RelayModel

@Suite("Reading Entrupy items")
struct EntrupyItemParserTests {
    func parse(_ json: String) throws -> EntrupyItem {
        try EntrupyItemParser.parse(JSONValue.parse(Array(json.utf8)))
    }

    /// A lookup may answer one item or a list of them: the latest submitted is the one meant.
    @Test func lookupAnswersInEveryShape() throws {
        func lookup(_ json: String) throws -> String? {
            try EntrupyItemParser.parseLookup(JSONValue.parse(Array(json.utf8)))?.entrupyID
        }
        let old = #"{"entrupy_id": "OLD", "timestamp": {"epoch": 1700000000}}"#
        let new = #"{"entrupy_id": "NEW", "timestamp": {"epoch": 1700000500}}"#
        let undated = #"{"entrupy_id": "UNDATED"}"#
        #expect(try lookup(#"{"item": \#(new)}"#) == "NEW")
        #expect(try lookup(new) == "NEW")
        #expect(try lookup(#"{"items": [\#(new), \#(old)]}"#) == "NEW")
        #expect(try lookup(#"{"item": [\#(old), \#(new), \#(undated)]}"#) == "NEW")
        #expect(try lookup("[\(old), \(new)]") == "NEW")
        // An entry that cannot be read might be the latest: the answer is refused, not guessed at.
        #expect(throws: EntrupyItemParser.Failure.notAnObject) { try lookup("[\(new), 7]") }
        #expect(throws: EntrupyItemParser.Failure.missingEntrupyID) { try lookup(#"{"items": [\#(old), {"status": {}}]}"#) }
        #expect(try lookup(#"{"items": [\#(undated), {"entrupy_id": "LATER"}]}"#) == "LATER", "of equals, the later in the list")
        #expect(try lookup(#"{"items": []}"#) == nil)
        #expect(throws: EntrupyItemParser.Failure.notAnObject) { try lookup("[1, 2]") }
    }

    @Test func restV1Item() throws {
        let item = try parse("""
        {"item": {"entrupy_id": "ENT-1", "status": {"result": {"id": "authentic", "final": true,
          "display": {"header": "Authentic", "message": "ok"}}, "flag": "flagged"},
          "properties": {"brand": {"id": "nike"}, "model": {"id": "air-max"}}, "activity": {"product_category": "sneakers"},
          "text_fields": {"customer_item_id": {"content": "sku-1"}}, "owner": {"user": {"username": "Org-u1"}},
          "timestamp": {"epoch": 1700000000}, "certificate": {"site": "https://cert/1"}, "unknown_key": [1,2]}}
        """)
        #expect(item.entrupyID == "ENT-1")
        #expect(item.customerItemID == "sku-1")
        #expect(item.result == "authentic" && item.resultFinal)
        #expect(item.resultHeader == "Authentic")
        #expect(item.flag == "flagged")
        #expect(item.brand == "nike" && item.model == "air-max" && item.category == "sneakers")
        #expect(item.username == "Org-u1")
        #expect(item.certificateURL == "https://cert/1")
        #expect(item.submittedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(item.raw["unknown_key"] != nil)
    }

    @Test func sdkShape() throws {
        let item = try parse("""
        {"authentication_id": "ENT-2", "status": {"result": {"id": "needs_review"}, "flag": {"id": "resolved", "is_flaggable": true}},
         "text_fields": [{"name": "note", "content": "x"}, {"name": "customer_item_id", "content": "sku-2", "is_identifier": true}]}
        """)
        #expect(item.entrupyID == "ENT-2")
        #expect(item.flag == "resolved")
        #expect(item.customerItemID == "sku-2")
        #expect(item.result == "needs_review")
        #expect(!item.resultFinal)
    }

    @Test("finality defaults by result", arguments: [
        ("needs_review", false), ("authentic", true), ("unknown", true), ("not_supported", true), ("invalid", true),
        ("data_required", false), ("received", false), ("canceled", false), ("analyzed", false), ("brand_new_value", false),
    ])
    func finalityDefault(_ result: String, _ final: Bool) throws {
        #expect(try parse(#"{"entrupy_id": "E", "status": {"result": {"id": "\#(result)"}}}"#).resultFinal == final)
    }

    @Test func aRetakeOrReceiptNeverFiresResultFinal() throws {
        for result in ["data_required", "received", "needs_review"] {
            let item = try parse(#"{"entrupy_id": "E", "status": {"result": {"id": "\#(result)"}, "flag": null}}"#)
            // A retake request seen at first sight is one (issue 45), never a final result.
            let created: [TransitionKind] = result == "data_required" ? [.itemCreated, .resultRetakeRequested] : [.itemCreated]
            #expect(TransitionDiffer.diff(from: nil, to: item.snapshot).map(\.kind) == created, "\(result)")
            let fromReview = ItemSnapshot(result: "needs_review", resultFinal: false, flag: "none")
            let kinds = TransitionDiffer.diff(from: fromReview, to: item.snapshot).map(\.kind)
            #expect(!kinds.contains(.resultFinal), "\(result)")
        }
        // The API's word wins both ways; a `final` that is not a boolean is treated as absent.
        #expect(try parse(#"{"entrupy_id": "E", "status": {"result": {"id": "data_required", "final": true}}}"#).resultFinal)
        #expect(try !parse(#"{"entrupy_id": "E", "status": {"result": {"id": "authentic", "final": false}}}"#).resultFinal)
        #expect(try parse(#"{"entrupy_id": "E", "status": {"result": {"id": "authentic", "final": "yes"}}}"#).resultFinal)
        #expect(try !parse(#"{"entrupy_id": "E", "status": {"result": {"id": "received", "final": 1}}}"#).resultFinal)
    }

    @Test func submittedIsTheSubmissionNotTheCaptureStart() throws {
        let item = try parse(#"{"entrupy_id": "E", "timestamp": {"epoch": 1700000000}, "event_times": {"submitted_at": {"epoch": 1700000120, "display": "x"}}}"#)
        #expect(item.submittedAt == Date(timeIntervalSince1970: 1_700_000_120))
        #expect(try parse(#"{"entrupy_id": "E", "timestamp": {"epoch": 1700000000}}"#).submittedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try parse(#"{"entrupy_id": "E", "event_times": {"submitted_at": {"epoch": "soon"}}, "timestamp": {"epoch": 1700000000}}"#).submittedAt
            == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func flagAsNullStringOrObject() throws {
        #expect(try parse(#"{"entrupy_id": "E", "status": {"flag": null}}"#).flag == "none")
        #expect(try parse(#"{"entrupy_id": "E", "status": {"flag": "flagged"}}"#).flag == "flagged")
        #expect(try parse(#"{"entrupy_id": "E", "status": {"flag": {"id": "flagged", "is_flaggable": false, "flag_info": {"id": 3}}}}"#).flag == "flagged")
        #expect(try parse(#"{"entrupy_id": "E", "status": {"flag": {"id": null}}}"#).flag == "none")
    }

    @Test func noResultIsNotFinalAndNoFlagIsNone() throws {
        let item = try parse(#"{"entrupy_id": "E"}"#)
        #expect(item.result == nil && !item.resultFinal && item.flag == "none")
        #expect(try parse(#"{"entrupy_id": "E", "text_fields": {"sku": "old"}}"#).customerItemID == "old")
    }

    @Test func itemsWithoutAnIDAreRefused() {
        #expect(throws: EntrupyItemParser.Failure.missingEntrupyID) { try parse(#"{"item": {"status": {}}}"#) }
        #expect(throws: EntrupyItemParser.Failure.notAnObject) { try parse("[1]") }
    }

    @Test("a submission epoch that cannot be a date is left out, not trapped on",
          arguments: ["1e13", "-1", "253402300800", "1e308", "\"x\""])
    func impossibleEpochs(_ epoch: String) throws {
        let json = try JSONValue.parse(Array(#"{"entrupy_id": "E1", "timestamp": {"epoch": \#(epoch)}}"#.utf8))
        let item = try EntrupyItemParser.parse(json)
        #expect(item.submittedAt == nil)
        #expect(item.raw[path: "timestamp.epoch"] != nil)
    }

    @Test func theLastStorableEpochIsKept() throws {
        let json = try JSONValue.parse(Array(#"{"entrupy_id": "E1", "timestamp": {"epoch": 253402300799}}"#.utf8))
        #expect(try EntrupyItemParser.parse(json).submittedAt == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test(arguments: [("sku-1", "sku-1"), ("  sku 1 ", "sku 1"), ("\u{00A0}sku\u{2003}", "sku"), ("x", "x"), ("a\tb", "a\tb"),
                      ("é", "é"), ("\nsku", "sku"), ("sku\u{0085}", "sku")])
    func valuesAreTrimmedOfWhitespaceAtBothEnds(raw: String, kept: String) {
        #expect(EntrupyItemParser.nonEmpty(raw) == kept)
    }

    @Test(arguments: ["", " ", "\u{00A0}\n\t"])
    func blankValuesAreAbsent(raw: String) {
        #expect(EntrupyItemParser.nonEmpty(raw) == nil)
    }
}
