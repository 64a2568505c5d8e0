import Foundation
import Testing
@testable import RelayModel

/// The whole item as support reads it, in each shape Entrupy sends (contract section 3).
@Suite("Reading an item's details")
struct ItemDetailsTests {
    func details(_ json: String) throws -> ItemDetails {
        ItemDetails.read(from: try JSONValue.parse(Array(json.utf8)))
    }

    /// REST v1.4, as webhooks carry it: every field present.
    @Test func restV14ItemWithEverything() throws {
        let d = try details("""
        {"item": {"entrupy_id": "ENT-1",
          "status": {"result": {"id": "invalid", "final": true, "reason": "photos are blurry",
                     "display": {"header": "Invalid", "message": "Retake the photos.",
                                 "reasons": [{"text": "Blurry label", "image": "https://m/r1.png"}, "Too dark", {"image": "x"}]}},
                     "flag": {"id": "resolved", "is_flaggable": false,
                              "flag_info": {"id": "fi-1", "label": "Resolved by support", "message": "Result confirmed."}}},
          "images": {"item_photo": "https://m/1.jpg",
                     "uploaded_images": [{"urls": {"original": "https://m/1.jpg", "scale_micro": "https://m/1_micro.jpg"}},
                                         {"urls": {"original": "https://m/2.jpg", "scale_micro": "https://m/2_micro.jpg"}},
                                         {"urls": {}}, 7]},
          "certificate": {"site": "https://c/1", "preview": "https://c/1/preview.png"},
          "event_times": {"capture_started_at": {"epoch": 1700000000, "display": "Nov 14"},
                          "submitted_at": {"epoch": 1700000060.5, "display": "Nov 14, 22:14"},
                          "initial_result_set_at": null, "result_returned_at": {"epoch": 1e300}},
          "timestamp": {"epoch": 1700000000},
          "owner": {"user": {"username": "u1"}, "organization": {"name": "Acme Resale"}},
          "activity": {"name": "authentication", "mode": "standard", "form_factor": "handheld", "product_category": "sneakers"},
          "text_fields": {"customer_item_id": "sku-1", "style_code": "DD1391-100", "size": {"content": "10.5"}, "upc": 194956623000,
                          "serial": null}}}
        """)
        #expect(d.resultHeader == "Invalid" && d.resultMessage == "Retake the photos.")
        #expect(d.resultReason == "photos are blurry")
        #expect(d.reasons == [.init(text: "Blurry label", image: "https://m/r1.png"), .init(text: "Too dark", image: nil)])
        #expect(d.isFlaggable == false)
        #expect(d.flagInfo == .init(id: "fi-1", label: "Resolved by support", message: "Result confirmed."))
        #expect(d.photos == [.init(original: "https://m/1.jpg", thumbnail: "https://m/1_micro.jpg"),
                             .init(original: "https://m/2.jpg", thumbnail: "https://m/2_micro.jpg")])
        #expect(d.photoURL == "https://m/1.jpg")
        #expect(d.certificateSite == "https://c/1" && d.certificatePreview == "https://c/1/preview.png")
        // Submitted is `event_times.submitted_at`, not `timestamp.epoch` (when capture started).
        #expect(d.submittedAt == Date(timeIntervalSince1970: 1_700_000_060.5))
        // A time that is no date (1e300) and has no display text is left out.
        #expect(d.eventTimes.map(\.name) == ["capture_started_at", "submitted_at", "started"])
        #expect(d.eventTimes.first { $0.name == "capture_started_at" }?.display == "Nov 14")
        #expect(d.organization == "Acme Resale")
        #expect(d.activityName == "authentication" && d.activityMode == "standard" && d.formFactor == "handheld")
        #expect(d.textFields.map(\.name) == ["customer_item_id", "size", "style_code", "upc"])
        #expect(d.textFields.first { $0.name == "upc" }?.content == "194956623000")
        #expect(d.textFields.first { $0.name == "size" }?.content == "10.5")
    }

    /// The SDK's shape: text fields as an array, the flag as an object without info.
    @Test func sdkShape() throws {
        let d = try details("""
        {"authentication_id": "ENT-2", "status": {"result": {"id": "needs_review"}, "flag": {"id": "none", "is_flaggable": true, "flag_info": null}},
         "text_fields": [{"name": "customer_item_id", "display_name": "Customer Item ID", "content": "sku-2", "is_identifier": true},
                         {"display_name": "Style Code", "content": "ABC"}, {"name": "empty", "content": "  "}],
         "more_details": {"certificate": {"site": "https://c/2"}}}
        """)
        #expect(d.isFlaggable == true && d.flagInfo == nil)
        #expect(d.textFields == [.init(name: "customer_item_id", displayName: "Customer Item ID", content: "sku-2", isIdentifier: true),
                                 .init(name: "style_code", displayName: "Style Code", content: "ABC", isIdentifier: nil)])
        #expect(d.certificateSite == "https://c/2")
        #expect(d.photos.isEmpty && d.reasons.isEmpty && d.resultHeader == nil)
    }

    /// REST v1 examples: `flag: null`, no images, no event times.
    @Test func restV1Minimal() throws {
        let d = try details(#"{"entrupy_id": "ENT-3", "status": {"result": {"id": "authentic"}, "flag": null}}"#)
        #expect(d == ItemDetails())
    }

    /// v2: `timestamp.created_at`, the customer item ID under properties, `certificate_id`.
    @Test func v2Shape() throws {
        let d = try details("""
        {"entrupy_id": "ENT-4", "timestamp": {"created_at": "2026-11-20T10:00:00Z"},
         "properties": {"brand": "Nike", "customer_item_id": "sku-4"}, "certificate": {"certificate_id": "CERT-9"}}
        """)
        #expect(d.eventTimes == [.init(name: "created", at: ISODate.parse("2026-11-20T10:00:00Z"), display: "2026-11-20T10:00:00Z")])
        #expect(d.textFields == [.init(name: "customer_item_id", displayName: nil, content: "sku-4", isIdentifier: true)])
        #expect(d.certificateID == "CERT-9")
    }

    /// Hostile shapes: every field of the wrong kind is left out, nothing throws.
    @Test(arguments: [
        #"{"status": "x", "images": [1], "event_times": 3, "text_fields": "x", "owner": []}"#,
        #"{"status": {"result": {"display": {"reasons": {"text": "not an array"}}}, "flag": ["a"]}, "images": {"item_photo": {"urls": 5}}}"#,
        #"[1, 2, 3]"#, #""text""#, #"null"#,
    ])
    func hostileShapesAreSkipped(_ json: String) throws {
        let d = try details(json)
        #expect(d.photos.isEmpty && d.reasons.isEmpty && d.eventTimes.isEmpty && d.textFields.isEmpty)
    }
}

@Suite("Catalogue ids as people type them")
struct CatalogueIDTests {
    @Test(arguments: [("Louis Vuitton", "louis_vuitton"), ("Off-White", "off_white"), ("NIKE", "nike"), ("  nike ", "nike"),
                      ("not_supported", "not_supported"), ("Under  Review", "under_review"), ("", "")])
    func ids(_ typed: String, _ id: String) {
        #expect(CatalogueID.from(typed) == id)
    }

    @Test func resultsByDisplayName() {
        #expect(CatalogueID.result("Unidentified") == "unknown")
        #expect(CatalogueID.result("Under Review") == "needs_review")
        #expect(CatalogueID.result("Not Supported") == "not_supported")
        #expect(CatalogueID.result("AUTHENTIC") == "authentic")
    }

    /// v2 gives the brand's name as a plain string and the customer item ID under properties.
    @Test func v2ItemsAreReadToo() throws {
        let item = try EntrupyItemParser.parse(JSONValue.parse(Array("""
        {"entrupy_id": "ENT-4", "timestamp": {"created_at": "2026-11-20T10:00:00Z"},
         "properties": {"brand": "Louis Vuitton", "customer_item_id": "sku-4"}}
        """.utf8)))
        #expect(item.brand == "louis_vuitton" && item.customerItemID == "sku-4")
        #expect(item.submittedAt == ISODate.parse("2026-11-20T10:00:00Z"))
    }
}

@Suite("What support messages and certificate transfers say")
struct WebhookNoteTests {
    func note(_ type: String?, _ json: String) -> String? {
        WebhookNote.read(eventType: type, body: Array(json.utf8))
    }

    @Test func theirTextReachesTheTimeline() {
        #expect(note("support.message", #"{"id": "e", "type": "support.message", "data": {"item": {}, "message": {"id": "m", "text": "We are on it.", "author": "Entrupy Support"}}}"#)
                == "Entrupy Support: We are on it.")
        #expect(note("support.message", #"{"data": {"message": {"text": "No author."}}}"#) == "No author.")
        #expect(note("certificate.transfer", #"{"data": {"transfer": {"id": "t", "status": "completed"}}}"#) == "certificate transfer completed")
    }

    @Test func otherEventsAndHostileBodiesSayNothing() {
        #expect(note("session.completed", #"{"data": {"message": {"text": "x"}}}"#) == nil)
        #expect(note(nil, #"{"data": {"message": {"text": "x"}}}"#) == nil)
        #expect(note("support.message", "not json") == nil)
        #expect(note("support.message", #"{"data": {"message": {"text": 7}}}"#) == nil)
        #expect(note("support.message", #"{"data": {"message": {"text": "   "}}}"#) == nil)
        let long = String(repeating: "a", count: 5_000)
        #expect(note("support.message", "{\"data\": {\"message\": {\"text\": \"\(long)\"}}}")?.count == WebhookNote.maxCharacters)
        #expect(note("support.message", #"{"data": {"message": {"text": "a\u0000b"}}}"#) == "a\u{FFFD}b")
    }
}
