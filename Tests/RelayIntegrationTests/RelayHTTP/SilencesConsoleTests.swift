import Foundation
import RelayModel
import Testing

/// The console's Silences page: a support session makes a silence with the form (CSRF
/// checked), sees it listed, and expires it; a bad form comes back with the problem.
@Suite("Console silences", .timeLimit(.minutes(2)))
struct SilencesConsoleTests {
    @Test func aSupportSessionMakesListsAndExpiresASilence() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let relay = stack.relay
            let token = try await APIAccess.token(stack.database, role: .support, name: "desk")
            let cookie = try await ConsoleSignIn.session(relay, token: token)
            func post(_ path: String, _ form: String) async throws -> TestRelay.Response {
                try await relay.request(path, method: .POST, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
                                        body: Array(form.utf8))
            }
            let page = try await relay.request("/console/silences", headers: [("Cookie", cookie)])
            #expect(page.status == 200)
            #expect(page.body.contains(#"id="silence-form""#))
            #expect(page.body.contains(#"id="no-silences""#))
            let csrf = try #require(page.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.prefix { $0 != "\"" })

            #expect(try await post("/console/silences", "brand=nike&duration=1h&reason=x").status == 403, "no CSRF token")
            let bad = try await post("/console/silences", "csrf=\(csrf)&brand=nike&duration=1h&reason=")
            #expect(bad.status == 400)
            #expect(bad.body.contains(#"id="problem""#) && bad.body.contains("reason"))
            #expect(bad.body.contains(#"value="nike""#), "the form comes back as filled")

            let made = try await post("/console/silences", "csrf=\(csrf)&rule=partner&brand=nike%2C+adidas&duration=2h&reason=partner+down")
            #expect(made.status == 303 || made.status == 302, "\(made.status) \(made.body)")
            let listed = try await relay.request("/console/silences", headers: [("Cookie", cookie)])
            #expect(listed.body.contains("brand=nike,adidas"))
            #expect(listed.body.contains("console desk"))
            let id = try await stack.count("SELECT max(id)::int FROM silences")
            #expect(listed.body.contains(#"id="expire-\#(id)""#))

            let ended = try await post("/console/silences/\(id)/expire", "csrf=\(csrf)")
            #expect(ended.status == 303 || ended.status == 302)
            #expect(try await stack.count("SELECT count(*) FROM silences WHERE expired_by = 'console desk' AND expired_at IS NOT NULL") == 1)
            let after = try await relay.request("/console/silences", headers: [("Cookie", cookie)])
            #expect(!after.body.contains(#"id="expire-\#(id)""#))
            #expect(after.body.contains("expired by console desk"))
            #expect(ended.header("Location")?.hasSuffix("done=silence-expired") == true, "the first expire says it expired")

            let again = try await post("/console/silences/\(id)/expire", "csrf=\(csrf)")
            #expect(again.header("Location")?.hasSuffix("done=silence-already-ended") == true, "\(again.status) \(again.headers)")
            let told = try await relay.request("/console/silences?done=silence-already-ended", headers: [("Cookie", cookie)])
            #expect(told.body.contains("The silence had already ended") && !told.body.contains("The silence is expired"))
        }
    }
}
