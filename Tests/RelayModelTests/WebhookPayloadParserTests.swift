import Crypto
import Foundation
import Testing
@testable import RelayModel

@Suite("Identifier extraction from webhook bodies")
struct WebhookPayloadParserTests {
    func parse(_ json: String, headers: [String: String] = [:], scheme: SignatureScheme = .standardWebhooks) -> ParsedWebhook {
        WebhookPayloadParser.parse(body: Array(json.utf8), headers: headers, verifiedBy: scheme)
    }

    /// Builds `{"a": {"b": value}}` for a dotted path.
    func nested(_ path: String, _ value: String) -> String {
        path.split(separator: ".").reversed().reduce("\"\(value)\"") { inner, key in "{\"\(key)\": \(inner)}" }
    }

    @Test("every Entrupy ID path", arguments: [
        "entrupy_id", "authentication_id", "data.entrupy_id", "data.authentication_id", "item.entrupy_id", "data.item.entrupy_id",
    ])
    func entrupyIDPaths(_ path: String) {
        let parsed = parse(nested(path, "ENT-42"))
        #expect(parsed.identifiers.entrupyID == "ENT-42")
        #expect(parsed.state == .queued)
    }

    @Test("every customer item ID path", arguments: [
        "customer_item_id", "text_fields.customer_item_id", "properties.customer_item_id",
        "data.customer_item_id", "data.text_fields.customer_item_id", "data.properties.customer_item_id",
        "item.customer_item_id", "item.text_fields.customer_item_id", "item.properties.customer_item_id",
        "data.item.customer_item_id", "data.item.text_fields.customer_item_id", "data.item.properties.customer_item_id",
        "text_fields.sku", "text_fields.order_id", "data.item.text_fields.sku",
    ])
    func customerItemIDPaths(_ path: String) {
        let parsed = parse(nested(path, "sku-9"))
        #expect(parsed.identifiers.customerItemID == "sku-9")
        #expect(parsed.identifiers.entrupyID == nil)
        #expect(parsed.state == .queued)
    }

    @Test("event type paths, in order", arguments: [("event", "a"), ("type", "b"), ("event_type", "c")])
    func eventTypePaths(_ key: String, _ value: String) {
        #expect(parse("{\"\(key)\": \"\(value)\", \"entrupy_id\": \"E\"}").identifiers.eventType == value)
    }

    @Test func earlierPathsWin() {
        let parsed = parse(#"{"event": "first", "type": "second", "entrupy_id": "top", "data": {"entrupy_id": "inner"},"#
            + #" "text_fields": {"sku": "old"}, "customer_item_id": "new"}"#)
        #expect(parsed.identifiers.eventType == "first")
        #expect(parsed.identifiers.entrupyID == "top")
        #expect(parsed.identifiers.customerItemID == "new")
    }

    @Test func restV1ObjectAndSDKArrayShapes() {
        #expect(parse(#"{"text_fields": {"customer_item_id": {"content": "obj-1"}}}"#).identifiers.customerItemID == "obj-1")
        #expect(parse(#"{"text_fields": {"customer_item_id": {"value": "obj-2"}}}"#).identifiers.customerItemID == "obj-2")
        let array = #"{"text_fields": {"customer_item_id": [{"content": "first"}, {"content": "marked", "is_identifier": true}]}}"#
        #expect(parse(array).identifiers.customerItemID == "marked")
        #expect(parse(#"{"text_fields": {"customer_item_id": [{"content": "only"}]}}"#).identifiers.customerItemID == "only")
    }

    @Test func numbersAreIdentifiersButBooleansAndBlanksAreNot() {
        #expect(parse(#"{"entrupy_id": 12345}"#).identifiers.entrupyID == "12345")
        #expect(parse(#"{"entrupy_id": true}"#).identifiers.entrupyID == nil)
        #expect(parse(#"{"entrupy_id": "   ", "authentication_id": "B"}"#).identifiers.entrupyID == "B")
        #expect(parse(#"{"entrupy_id": "bad\u0000id"}"#).identifiers.entrupyID == nil)
        #expect(parse("{\"entrupy_id\": \"\(String(repeating: "x", count: 600))\"}").identifiers.entrupyID == nil)
    }

    @Test func numericEventIDsBeyondDoublePrecisionDoNotCollide() {
        let first = parse(#"{"id": 9007199254740993, "entrupy_id": "E1"}"#)
        let second = parse(#"{"id": 9007199254740992, "entrupy_id": "E1"}"#)
        #expect(first.identifiers.eventID == "9007199254740993")
        #expect(second.identifiers.eventID == "9007199254740992")
        #expect(first.dedupKey != second.dedupKey)
        #expect(parse(#"{"customer_item_id": 1234567890123456, "id": 1}"#).identifiers.customerItemID == "1234567890123456")
    }

    /// The event ID is recorded from the body, then the signed header; only the signed header
    /// or the body itself decides what counts as the same event (issue 30).
    @Test func eventIDComesFromBodyThenHeaderButOnlyTheSignedHeaderOrTheBodyDeduplicates() {
        let body = #"{"entrupy_id": "E"}"#
        let hash = HexBytes.encode(SHA256.hash(data: Array(body.utf8)))
        let withID = #"{"id": "evt-1", "entrupy_id": "E"}"#
        #expect(parse(withID).identifiers.eventID == "evt-1")
        #expect(parse(withID).dedupKey == "sha256:" + HexBytes.encode(SHA256.hash(data: Array(withID.utf8))))
        #expect(parse(#"{"event_id": "evt-2", "entrupy_id": "E"}"#).identifiers.eventID == "evt-2")
        #expect(parse(body, headers: ["webhook-id": "msg_3"]).dedupKey == "id:msg_3")
        #expect(parse(#"{"id": "body-id", "entrupy_id": "E"}"#, headers: ["webhook-id": "msg_4"]).dedupKey == "id:msg_4")
        // Issue 10, defect 9: under Entrupy-Signature the header is not signed, so it cannot
        // choose the de-duplication key: replaying one body with new webhook-ids stays one event.
        for replayed in ["replay-1", "replay-2", "future-id"] {
            #expect(parse(body, headers: ["webhook-id": replayed], scheme: .entrupy).dedupKey == "sha256:" + hash)
        }
        #expect(parse(body, headers: ["webhook-id": "x"], scheme: .entrupy).identifiers.eventID == nil)
        let parsed = parse(body)
        #expect(parsed.dedupKey == "sha256:" + hash)
        #expect(parsed.bodySHA256 == hash)
    }

    /// Entrupy sends session.completed for fingerprinting sessions too: kept, never queued.
    @Test func fingerprintingSessionsAreKeptButNotQueued() {
        for body in [#"{"entrupy_id": "F1", "activity": {"name": "fingerprint", "mode": "compare"}}"#,
                     #"{"entrupy_id": "F1", "data": {"item": {"activity": {"name": "Fingerprint"}}}}"#] {
            let parsed = parse(body)
            #expect(parsed.state == .unrecognised && parsed.parseError == WebhookPayloadParser.fingerprintNote, "\(body)")
            #expect(parsed.identifiers.entrupyID == "F1")
        }
        #expect(parse(#"{"entrupy_id": "A1", "data": {"item": {"activity": {"name": "authentication"}}}}"#).state == .queued)
    }

    @Test func unrecognisedAndUnparseableBodiesAreKeptWithAState() {
        let unknown = parse(#"{"event": "certificate.transfer", "something": {"else": 1}}"#)
        #expect(unknown.state == .unrecognised)
        #expect(unknown.identifiers.eventType == "certificate.transfer")

        let garbage = parse("not json at all")
        #expect(garbage.state == .unparseable)
        #expect(garbage.parseError == "body is not valid JSON")
        #expect(garbage.dedupKey.hasPrefix("sha256:"))

        #expect(parse("[1, 2]").state == .unparseable)
        #expect(parse("\"text\"").parseError == "body is JSON but not an object")
        #expect(parse("").state == .unparseable)
        #expect(parse("not json", headers: ["webhook-id": "m1"]).dedupKey == "id:m1")
    }
}
