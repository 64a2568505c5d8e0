import Foundation

/// Signs in to the console over HTTP as a browser would (login form, CSRF cookie); returns
/// the session cookie for further requests.
enum ConsoleSignIn {
    static func session(_ relay: TestRelay, token: String) async throws -> String {
        let page = try await relay.request("/console/login")
        guard let loginCookie = page.header("Set-Cookie"),
              let csrf = page.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.prefix(while: { $0 != "\"" }) else {
            throw TestSetupError("no login form")
        }
        let signedIn = try await relay.request("/console/login", method: .POST, headers: [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", String(loginCookie.prefix { $0 != ";" }))],
            body: Array("token=\(token)&csrf=\(csrf)".utf8))
        guard let session = signedIn.headers.first(where: { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("relay_session=") })?.1 else {
            throw TestSetupError("sign-in refused: \(signedIn.status)")
        }
        return String(session.prefix { $0 != ";" })
    }
}
