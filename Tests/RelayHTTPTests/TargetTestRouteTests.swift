import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import RelayModel
@testable import RelayHTTP

/// `POST /v1/targets/test` and the targets page's "Send test", on in-memory doubles.
@Suite("Target tests: the API route and the console button, without PostgreSQL")
struct TargetTestRouteTests {
    static let admin = RouterHarness.bearer("admin-token")

    @Test func theAPIAnswersWithWhatTheTargetSaid() async throws {
        let tests = MemoryTargetTests()
        try await RouterHarness.application(targetTests: tests).test(.router) { client in
            let ok = try await client.execute(uri: "/v1/targets/test", method: .post, headers: Self.admin,
                                              body: ByteBuffer(string: #"{"rule": "notify"}"#))
            #expect(ok.status == .ok)
            let json = try #require(RouterHarness.json(ok))
            #expect(json["status"] as? Int == 202 && json["succeeded"] as? Bool == true && json["webhook_id"] as? String == "test_1")
            #expect(json["excerpt"] as? String == #"{"queued": "<b>yes</b>"}"#)
            #expect((json["headers"] as? [String: String])?["content-type"] == "application/json")
            #expect(json.keys.contains("smtp_reply") && json["smtp_reply"] is NSNull)
            // A refusal is still an answer: 200, with succeeded false.
            let refused = try await client.execute(uri: "/v1/targets/test", method: .post, headers: Self.admin,
                                                   body: ByteBuffer(string: #"{"rule": "notify", "action": 1}"#))
            #expect(refused.status == .ok)
            #expect(RouterHarness.json(refused)?["succeeded"] as? Bool == false)
            #expect(RouterHarness.json(refused)?["smtp_reply"] as? String == "550 5.1.1 no such user")
            #expect(tests.sent.withLock { $0 } == ["notify/0 by token admin", "notify/1 by token admin"])
        }
    }

    @Test func badChoicesGetAClear4xx() async throws {
        let tests = MemoryTargetTests()
        try await RouterHarness.application(targetTests: tests).test(.router) { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"rule": "nope"}"#, .notFound, "no rule named \"nope\" (rules: notify)"),
                (#"{"rule": "notify", "action": 7}"#, .badRequest, "rule \"notify\" has no action 7: its actions are 0 to 1"),
                (#"{"rule": "notify", "action": -1}"#, .badRequest, "field \"action\": must be a whole number from 0"),
                (#"{"rule": "notify", "action": 1.5}"#, .badRequest, "field \"action\": must be a whole number from 0"),
                (#"{"rule": "notify", "action": "0"}"#, .badRequest, "field \"action\": must be a whole number from 0"),
                (#"{"rule": "notify", "transition": "result.finale"}"#, .badRequest, "unknown transition kind \"result.finale\""),
                (#"{"action": 0}"#, .badRequest, "field \"rule\": required"),
                (#"{"rule": 3}"#, .badRequest, "field \"rule\": must be a string"),
                (#"{"rule": "notify", "url": "http://169.254.169.254/"}"#, .badRequest, "field \"url\": unknown field"),
                ("[1]", .badRequest, "the body must be a JSON object"),
                ("not json", .badRequest, "the body must be a JSON object"),
            ]
            for (body, status, message) in cases {
                let response = try await client.execute(uri: "/v1/targets/test", method: .post, headers: Self.admin, body: ByteBuffer(string: body))
                #expect(response.status == status, "\(body)")
                #expect(RouterHarness.errorMessage(response)?.hasPrefix(message) == true, "\(body): \(RouterHarness.errorMessage(response) ?? "-")")
            }
            #expect(tests.sent.withLock { $0 }.isEmpty, "nothing is sent for a bad choice")
        }
    }

    @Test func adminsSeeASendTestButtonPerRuleActionAndTheAnswerAfterIt() async throws {
        let tests = MemoryTargetTests()
        try await RouterHarness.application(targetTests: tests).test(.router) { client in
            let page = try await client.execute(uri: "/console/targets", method: .get, headers: ConsoleAccessTests.cookie(.admin))
            let html = String(buffer: page.body)
            #expect(page.status == .ok)
            #expect(html.contains(#"id="rule-actions""#))
            #expect(html.components(separatedBy: "Send test</button>").count == 3, "one button per rule action")
            #expect(html.contains(#"<input type="hidden" name="rule" value="notify"><input type="hidden" name="action" value="1">"#))
            #expect(html.contains(#"name="csrf" value="csrf-admin""#))

            let sent = try await client.execute(uri: "/console/targets/test", method: .post, headers: ConsoleAccessTests.cookie(.admin),
                                                body: ByteBuffer(string: "csrf=csrf-admin&rule=notify&action=0"))
            let answer = String(buffer: sent.body)
            #expect(sent.status == .ok)
            #expect(answer.contains(#"<strong id="test-outcome">HTTP 202</strong>"#))
            #expect(answer.contains("&lt;b&gt;yes&lt;/b&gt;") && !answer.contains("<b>yes</b>"), "the excerpt is escaped")
            #expect(answer.contains("content-type: application/json"))
            #expect(tests.sent.withLock { $0 } == ["notify/0 by console admin"])

            let refused = try await client.execute(uri: "/console/targets/test", method: .post, headers: ConsoleAccessTests.cookie(.admin),
                                                   body: ByteBuffer(string: "csrf=csrf-admin&rule=notify&action=1"))
            #expect(String(buffer: refused.body).contains("SMTP 550 5.1.1 no such user"))
            let unknown = try await client.execute(uri: "/console/targets/test", method: .post, headers: ConsoleAccessTests.cookie(.admin),
                                                   body: ByteBuffer(string: "csrf=csrf-admin&rule=gone&action=0"))
            #expect(unknown.status == .notFound && String(buffer: unknown.body).contains("no rule named &quot;gone&quot;"))
            let forged = try await client.execute(uri: "/console/targets/test", method: .post, headers: ConsoleAccessTests.cookie(.admin),
                                                  body: ByteBuffer(string: "csrf=csrf-other&rule=notify&action=0"))
            #expect(forged.status == .forbidden)
            #expect(tests.sent.withLock { $0 }.count == 2, "a forged form sends nothing")
        }
    }

    @Test func supportSeesTheActionsButMayNotSend() async throws {
        let tests = MemoryTargetTests()
        try await RouterHarness.application(targetTests: tests).test(.router) { client in
            let page = try await client.execute(uri: "/console/targets", method: .get, headers: ConsoleAccessTests.cookie(.support))
            let html = String(buffer: page.body)
            #expect(html.contains(#"id="rule-actions""#) && !html.contains("Send test</button>"))
            let post = try await client.execute(uri: "/console/targets/test", method: .post, headers: ConsoleAccessTests.cookie(.support),
                                                body: ByteBuffer(string: "csrf=csrf-support&rule=notify&action=0"))
            #expect(post.status == .forbidden)
            #expect(tests.sent.withLock { $0 }.isEmpty)
        }
    }
}
