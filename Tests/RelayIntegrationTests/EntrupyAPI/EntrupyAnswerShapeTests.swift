import EntrupyAPI
import RelayModel
import Testing

/// How `entrupy check` reads Entrupy's answers, and which route paths a setting may give: pure.
@Suite struct EntrupyAnswerShapeTests {
    func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func lookupAnswers() throws {
        #expect(EntrupyAnswerShape.lookup(try json(#"{"item": {"entrupy_id": "E1"}}"#)) == EntrupyFinding("lookup", .ok, "answered one item, E1"))
        let list = EntrupyAnswerShape.lookup(try json(#"{"items": [{"entrupy_id": "E1", "timestamp": {"epoch": 1}}, {"entrupy_id": "E2", "timestamp": {"epoch": 2}}]}"#))
        #expect(list.verdict == .ok && list.detail == "answered a list of 2; the relay takes the latest submitted, E2")
        #expect(EntrupyAnswerShape.lookup(try json(#"{"items": []}"#)).verdict == .differs)
        #expect(EntrupyAnswerShape.lookup(try json(#"[{"entrupy_id": "E1"}, 7]"#)).verdict == .differs)
        #expect(EntrupyAnswerShape.lookup(try json(#""text""#)).verdict == .differs)
    }

    @Test func cursorKinds() throws {
        #expect(EntrupyAnswerShape.cursorKind(nil) == "none (the last page)")
        #expect(EntrupyAnswerShape.cursorKind(.string("")) == "none (the last page)")
        #expect(EntrupyAnswerShape.cursorKind(.string("abc")) == "a string")
        #expect(EntrupyAnswerShape.cursorKind(try json(#"["1", "A"]"#)) == "a list")
        #expect(EntrupyAnswerShape.cursorKind(try json("{}")) == "an object")
    }

    @Test func itemShapes() throws {
        let v2 = EntrupyAnswerShape.item(try json("""
            {"entrupy_id": "E2", "timestamp": {"created_at": "2026-11-01T10:00:00Z"}, "status": {"result": {"id": "authentic", "final": true},
             "initial_result": {"id": "needs_review", "final": false}, "flag": "reviewed_ok"}, "properties": {"customer_item_id": "sku-1"}}
            """))
        #expect(v2 == EntrupyFinding("item shape", .ok, "v2 shape: E2, result authentic (final), flag a string, customer item ID sku-1"))
        let v1 = EntrupyAnswerShape.item(try json(#"{"entrupy_id": "E1", "timestamp": {"epoch": 1700000000}, "status": {"result": {"id": "unknown"}, "flag": null}}"#))
        #expect(v1 == EntrupyFinding("item shape", .ok, "v1.4 shape: E1, result unknown (final), flag null, no customer item ID"))
        let undated = EntrupyAnswerShape.item(try json(#"{"entrupy_id": "E3", "status": {"result": {"id": "authentic"}}}"#))
        #expect(undated.verdict == .differs && undated.detail.contains("lacks a submission time"))
        #expect(EntrupyAnswerShape.item(try json(#"{"status": {}}"#)).verdict == .differs)
        #expect(EntrupyAnswerShape.item(try json(#"{"entrupy_id": "E4", "timestamp": {"epoch": 1}, "status": {"result": {"id": "a"}, "flag": 3}}"#)).verdict == .differs)
    }

    @Test func routePaths() {
        #expect(EntrupyAPIRoutes.problem(path: "/v3/authentications/{id}", placeholder: "{id}") == nil)
        #expect(EntrupyAPIRoutes.problem(path: "/v3/search", placeholder: nil) == nil)
        for (path, placeholder) in [("v3/x/{id}", "{id}"), ("/v3/x", "{id}"), ("/v3/{id}/{id}", "{id}"), ("/v3/x?{id}", "{id}"), ("/v3/x/{id}#", "{id}"),
                                    ("/v3 /{id}", "{id}"), ("/v3/%2e/{id}", "{id}"), ("/v3/{x}", nil), ("/v3/\u{7F}", nil), ("/" + String(repeating: "a", count: 300), nil)] {
            #expect(EntrupyAPIRoutes.problem(path: path, placeholder: placeholder) != nil, "\(path)")
        }
        #expect(EntrupyAPIRoutes.defaults(for: .v1_4).versionHeader == "1.4" && EntrupyAPIRoutes.defaults(for: .v2).versionHeader == nil)
    }
}
