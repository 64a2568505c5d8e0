import Foundation
import Testing
import RelayModel
import RelayRules

/// Issue 12: a support agent answers a dispute's questions (why this result, what the flag
/// said, what the photos show, who submitted it, is it a resubmission) from the API, the
/// console and the CLI, for an item the simulator filled with every field.
@Suite("Support reads what Entrupy knows", .timeLimit(.minutes(3)))
struct ItemDetailsAPITests {
    @Test func everyFieldReachesTheAPIConsoleAndTimeline() async throws {
        try await ReconcileStack.with { stack async throws in
            let support = try await APIAccess.token(stack.database, role: .support)
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            let sim = stack.simulator
            // An earlier authentication of the same customer item ID: the one in dispute is a resubmission.
            let first = try await sim.createItem("sku-dispute", result: "unknown", final: true)
            #expect(try await stack.waitFor(first, result: "unknown"))
            let (status, created) = try await sim.call(.POST, "/_sim/items", .object([
                "customer_item_id": .string("sku-dispute"), "brand": .string("louis_vuitton"), "flag_style": .string("object"), "username": .string("org-u7"), "photos": .number(JSONNumber(3)),
                "style_code": .string("M40712"), "size": .string("PM"), "result": .string("invalid"), "final": .bool(true), "result_reason": .string("the label is not legible"),
                "reasons": .array([.object(["text": .string("Label unreadable"), "image": .string("https://sim.entrupy.invalid/r/1.png")])]),
            ]))
            let id = try #require(created["entrupy_id"]?.stringValue, "\(status)")
            try await TestDatabase.withClient(stack.database) { client in
                try await client.query("""
                    INSERT INTO sdk_users (unique_user_id, username, email, first_name, last_name)
                    VALUES ('emp-42', 'org-u7', 'ana@example.com', 'Ana', 'Lima')
                    """, logger: TestDatabase.logger)
            }
            let (flagged, _) = try await sim.call(.POST, "/_sim/items/\(id)/flag", .object([
                "flag": .string("flagged"), "flag_info": .object(["id": .string("fi-7"), "label": .string("Customer disputes"), "message": .string("Says the bag is genuine.")]),
            ]))
            #expect(flagged == 200)
            #expect(try await stack.waitFor(id, result: "invalid", flag: "flagged"))
            let (said, _) = try await sim.call(.POST, "/_sim/items/\(id)/support_message", .object(["text": .string("We are reviewing the photos."), "author": .string("Entrupy Support")]))
            #expect(said == 200)
            let noted = try await eventually(timeout: .seconds(20)) {
                let json = try await stack.relay.get("/v1/items/\(id)", token: support).json
                return (json?["timeline"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "support.message" }
            }
            #expect(noted, "the support message never reached the timeline")
            let detail = try #require(try await stack.relay.get("/v1/items/\(id)", token: support).json)
            let d = try #require(detail["details"] as? [String: Any])
            #expect(d["result_header"] as? String == "Invalid" && (d["result_message"] as? String)?.isEmpty == false)
            #expect(d["result_reason"] as? String == "the label is not legible")
            #expect((d["reasons"] as? [[String: Any]])?.first?["text"] as? String == "Label unreadable")
            let info = try #require(d["flag_info"] as? [String: Any])
            #expect(info["label"] as? String == "Customer disputes" && info["message"] as? String == "Says the bag is genuine.")
            let photos = d["photos"] as? [[String: Any]] ?? []
            #expect(photos.count == 3 && (photos.first?["thumbnail"] as? String)?.hasSuffix("_micro.jpg") == true)
            let times = (d["event_times"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(times.contains("submitted_at") && times.contains("capture_started_at"))
            #expect((d["organization"] as? String)?.isEmpty == false)
            let fields = (d["text_fields"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) { $0[$1["name"] as? String ?? ""] = $1["content"] as? String }
            #expect(fields["style_code"] == "M40712" && fields["size"] == "PM" && fields["customer_item_id"] == "sku-dispute")
            // Who submitted it, for support; the resubmission history, newest first.
            let submitter = try #require(detail["submitter"] as? [String: Any])
            #expect(submitter["unique_user_id"] as? String == "emp-42" && submitter["email"] as? String == "ana@example.com")
            #expect((detail["resubmissions"] as? [[String: Any]])?.map { $0["entrupy_id"] as? String } == [first])
            let note = (detail["timeline"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "support.message" }
            #expect(note?["summary"] as? String == "Entrupy Support: We are reviewing the photos.")

            // A consumer reads the details and the note, not the person.
            let limited = try #require(try await stack.relay.get("/v1/items/\(id)", token: consumer).json)
            #expect(limited["submitter"] is NSNull && (limited["details"] as? [String: Any])?["flag_info"] != nil)
            #expect((limited["timeline"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "support.message" })

            // The console's item page shows the same, photos as thumbnails linking to the originals.
            let cookie = try await ConsoleSignIn.session(stack.relay, token: support)
            let page = try await stack.relay.request("/console/items/\(id)", headers: [("Cookie", cookie)])
            #expect(page.status == 200)
            for expected in ["Customer disputes", "Says the bag is genuine.", "the label is not legible", "emp-42", "ana@example.com",
                             "_micro.jpg", "We are reviewing the photos.", "Other authentications", "/console/items/\(first)", "M40712",
                             "Submitted", "Capture started"] {
                #expect(page.body.contains(expected), "console item page lacks \(expected)")
            }
            #expect(page.header("Content-Security-Policy")?.contains("script-src") == false)
        }
    }

    /// An item the relay never saw (its webhook was lost) is pulled in by support, from the API
    /// or from the console's empty search.
    @Test func supportImportsAnUnseenItem() async throws {
        try await ReconcileStack.with { stack async throws in
            let support = try await APIAccess.token(stack.database, role: .support)
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            let unseen = try await stack.simulator.createItem("sku-unseen", result: "authentic", final: true, webhook: false)
            let relay = stack.relay
            #expect(try await relay.get("/v1/items/sku-unseen", token: support).status == 404)
            #expect(try await relay.post("/v1/items/import", token: consumer, json: #"{"customer_item_id": "sku-unseen"}"#).status == 403)
            for bad in [#"{}"#, #"{"customer_item_id": ""}"#, #"{"customer_item_id": 7}"#, #"{"entrupy_id": "a", "customer_item_id": "b"}"#,
                        #"{"sku": "x"}"#, #"[1]"#, "not json", #"{"customer_item_id": "a\u0001b"}"#] {
                let answer = try await relay.post("/v1/items/import", token: support, json: bad)
                #expect(answer.status == 400 && answer.json?["error"] != nil, "\(bad): \(answer.status) \(answer.body)")
            }
            let missing = try await relay.post("/v1/items/import", token: support, json: #"{"customer_item_id": "sku-nobody-has"}"#)
            #expect(missing.status == 404 && ((missing.json?["error"] as? [String: Any])?["message"] as? String)?.contains("Entrupy has no item") == true,
                    "\(missing.body)")
            let imported = try await relay.post("/v1/items/import", token: support, json: #"{"customer_item_id": "sku-unseen"}"#)
            #expect(imported.status == 201 && imported.json?["entrupy_id"] as? String == unseen, "\(imported.body)")
            #expect((imported.json?["transitions"] as? [[String: Any]])?.first?["kind"] as? String == "item.created")
            // Again: already known, fetched again.
            let again = try await relay.post("/v1/items/import", token: support, json: "{\"entrupy_id\": \"\(unseen)\"}")
            #expect(again.status == 200)

            // The console offers it when a search by customer item ID finds nothing.
            let other = try await stack.simulator.createItem("sku-console-unseen", result: "unknown", final: true, webhook: false)
            let cookie = try await ConsoleSignIn.session(relay, token: support)
            let empty = try await relay.request("/console/items?customer_item_id=sku-console-unseen", headers: [("Cookie", cookie)])
            #expect(empty.status == 200 && empty.body.contains("id=\"import\""))
            let csrf = try #require(empty.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.prefix { $0 != "\"" })
            let posted = try await relay.request("/console/items/import", method: .POST, headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
                body: Array("csrf=\(csrf)&customer_item_id=sku-console-unseen".utf8))
            #expect(posted.status == 303 && posted.header("Location")?.hasPrefix("/console/items/\(other)") == true, "\(posted.status)")
            let consumerCookie = try await ConsoleSignIn.session(relay, token: consumer)
            let noOffer = try await relay.request("/console/items?customer_item_id=sku-none", headers: [("Cookie", consumerCookie)])
            #expect(noOffer.status == 200 && !noOffer.body.contains("id=\"import\""))
        }
    }

    /// Rules templates get the new fields; `rules check` knows them.
    @Test func templatesRenderResultTextFlagReasonPhotoAndSubmitter() throws {
        let raw = try JSONValue.parse(Array("""
        {"entrupy_id": "E-1", "status": {"result": {"id": "unknown", "final": true, "display": {"header": "Unidentified", "message": "We could not identify it."}},
         "flag": {"id": "flagged", "flag_info": {"id": "f", "label": "Disputed", "message": "Customer says genuine"}}},
         "images": {"item_photo": "https://m/1.jpg"}}
        """.utf8))
        let item = try EntrupyItemParser.parse(raw)
        let subject = NotificationSubject(item: item, transition: Transition(kind: .flagRaised, from: "none", to: "flagged"),
                                          occurredAt: Date(timeIntervalSince1970: 0), uniqueUserID: "emp-9")
        let values = subject.templateValues
        #expect(values["result_label"] == "Unidentified" && values["result_header"] == "Unidentified")
        #expect(values["result_message"] == "We could not identify it." && values["flag_reason"] == "Disputed")
        #expect(values["flag_message"] == "Customer says genuine" && values["photo_url"] == "https://m/1.jpg" && values["unique_user_id"] == "emp-9")
        #expect(subject.callbackData["unique_user_id"]?.stringValue == "emp-9")
        for name in ["result_header", "result_message", "flag_reason", "flag_message", "photo_url", "unique_user_id"] {
            #expect(NotificationSubject.variableNames.contains(name))
        }
    }
}
