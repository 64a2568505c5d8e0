import Foundation
public import Hummingbird
import HTTPTypes
import Logging
import Mustache
import NIOCore
import RelayModel

/// `/console`: server-rendered pages for support staff. Sign in with an API token; the
/// session lives in an HTTP-only, SameSite=Strict cookie; every form carries a CSRF token
/// (the session's, or before sign-in a double-submit cookie's). No JavaScript.
public struct ConsoleController: Sendable {
    static let sessionCookie = "relay_session"
    static let loginCookie = "relay_login_csrf"
    // Room for the flag form's 2,000-character comment however it is percent-encoded (up to 12
    // bytes a character).
    static let maxFormBytes = 64 * 1024

    let auth: BearerAuthenticator
    let sessions: any ConsoleSessionStore
    let items: any ItemQueries
    let deliveries: any DeliveryQueries
    /// Nil when the Entrupy API is not configured (no import offered).
    let importer: (any ItemImporting)?
    /// Nil in tests without PostgreSQL (the overview answers 503).
    let overview: (any OverviewQueries)?
    /// Nil in tests without PostgreSQL (the targets page answers 503).
    let targets: (any TargetQueries)?
    let sessionLifetime: Duration
    let secureCookies: Bool
    /// Exports under way in this process (shared with the API's).
    let exports: ExportGate
    /// Per-token caps, as on the API: the console's pages are the same queries.
    let slots: any RequestSlots
    let tokenConcurrency: Int
    /// Where item photos may load from (`ENTRUPY_RELAY_CONSOLE_IMAGE_SOURCES`), for the Content-Security-Policy.
    let imageSources: [String]
    let library: MustacheLibrary
    /// Flag and refresh (nil, as in the router tests: neither is offered).
    var actions: ItemActions?
    /// The targets page's "Send test" (nil: not offered).
    var targetTests: (any TargetTesting)?
    /// The Silences page (nil: not offered).
    var silences: (any SilenceStoring)?
    /// The rule names of the rules file in force, when one is set (a silence must name one).
    var silenceRuleNames: (@Sendable () -> Set<String>)?

    public init(auth: BearerAuthenticator, sessions: any ConsoleSessionStore,
                items: any ItemQueries, deliveries: any DeliveryQueries, importer: (any ItemImporting)? = nil,
                overview: (any OverviewQueries)? = nil, targets: (any TargetQueries)? = nil, sessionLifetime: Duration, secureCookies: Bool,
                exports: ExportGate = ExportGate(limit: 4), slots: any RequestSlots = MemoryRequestSlots(), tokenConcurrency: Int = 8,
                imageSources: [String] = ConsoleController.defaultImageSources) {
        self.exports = exports
        self.slots = slots
        self.tokenConcurrency = tokenConcurrency
        self.imageSources = imageSources
        self.importer = importer
        self.overview = overview
        self.targets = targets
        self.auth = auth
        self.sessions = sessions
        self.items = items
        self.deliveries = deliveries
        self.sessionLifetime = sessionLifetime
        self.secureCookies = secureCookies
        library = ConsoleTemplates.library
    }

    /// The sign-in pages for anyone; the rest behind a session, each with its permission.
    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/console") { _, _ in Self.redirect("/console/items") }
        router.get("/console/style.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=300"],
                     body: .init(byteBuffer: ByteBuffer(string: ConsoleTemplates.css)))
        }
        router.get("/console/login", use: loginPage)
        router.post("/console/login", use: login)
        router.post("/console/logout", use: logout)
        router.group("console").add(middleware: ConsoleSessionMiddleware(sessions: sessions))
            .add(middleware: TokenConcurrencyMiddleware(slots: slots, limit: tokenConcurrency))
            .on(.get, "items", needs: .readItems, use: searchPage)
            .on(.get, "items/{entrupy_id}", needs: .readItems, use: itemPage)
            .on(.post, "items/{entrupy_id}/reconcile", needs: .reconcileItems, use: reconcile)
            .on(.post, "items/{entrupy_id}/flag", needs: .reconcileItems, use: flagItem)
            .on(.post, "items/{entrupy_id}/refresh", needs: .reconcileItems, use: refreshItem)
            .on(.post, "items/import", needs: .reconcileItems, use: importItem)
            .on(.get, "items/export", needs: .readItems, use: exportItems)
            .on(.get, "overview", needs: .readDeliveries, use: overviewPage)
            .on(.post, "deliveries/{id}/retry", needs: .retryDeliveries, use: retry)
            .on(.get, "deliveries", needs: .readDeliveries, use: deliveriesPage)
            .on(.post, "deliveries/retry", needs: .retryDeliveries, use: bulkRetry)
            .on(.get, "targets", needs: .readDeliveries, use: targetsPage)
            .on(.post, "targets/{id}/enable", needs: .retryDeliveries, use: enableTarget)
            .on(.post, "targets/{id}/disable", needs: .retryDeliveries, use: disableTarget)
            .on(.post, "targets/test", needs: .testTargets, use: testTarget)
            .on(.get, "silences", needs: .readDeliveries, use: silencesPage)
            .on(.post, "silences", needs: .retryDeliveries, use: createSilence)
            .on(.post, "silences/{id}/expire", needs: .retryDeliveries, use: expireSilence)
    }

    // MARK: Signing in and out

    @Sendable func loginPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        if try await session(request) != nil { return Self.redirect("/console/items") }
        return loginForm(request, context: context, problem: nil, status: .ok)
    }

    @Sendable func login(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        guard let expected = request.cookies[Self.loginCookie]?.value, let sent = form["csrf"],
              Self.constantTimeEqual(expected, sent) else {
            return loginForm(request, context: context, problem: "The sign-in form expired; please try again.", status: .forbidden)
        }
        guard let caller = try await auth.check(form["token"] ?? "", request: request, context: context, from: "console") else {
            return loginForm(request, context: context, problem: "That token is not valid (or was revoked).", status: .unauthorized)
        }
        let created = try await sessions.create(for: caller, lifetime: sessionLifetime)
        context.logger.info("console: signed in", metadata: ["token": "\(caller.name)", "role": "\(caller.role.rawValue)"])
        var response = Self.redirect("/console/items")
        response.setCookie(cookie(Self.sessionCookie, created.id, request: request, context: context,
                                  maxAge: Int(sessionLifetime.components.seconds)))
        response.setCookie(cookie(Self.loginCookie, "", request: request, context: context, maxAge: 0))
        return response
    }

    @Sendable func logout(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        if let id = request.cookies[Self.sessionCookie]?.value, let session = try await sessions.find(id) {
            guard let sent = form["csrf"], Self.constantTimeEqual(session.csrfToken, sent) else {
                throw APIError(.forbidden, "missing or wrong CSRF token")
            }
            try await sessions.delete(id)
        }
        var response = Self.redirect("/console/login")
        response.setCookie(cookie(Self.sessionCookie, "", request: request, context: context, maxAge: 0))
        return response
    }

    func loginForm(_ request: Request, context: RelayRequestContext, problem: String?, status: HTTPResponse.Status) -> Response {
        var generator = SystemRandomNumberGenerator()
        let csrf = APIToken.randomText(bytes: 24, using: &generator)
        var view = ConsoleViews.base(title: "Sign in", session: nil, csrf: csrf)
        if let problem { view["problem"] = problem }
        var response = render("login", view, status: status)
        response.setCookie(cookie(Self.loginCookie, csrf, request: request, context: context, maxAge: 3600))
        return response
    }

    // MARK: Helpers shared with the pages

    func session(_ request: Request) async throws -> ConsoleSession? {
        guard let id = request.cookies[Self.sessionCookie]?.value, !id.isEmpty else { return nil }
        return try await sessions.find(id)
    }

    /// The session `ConsoleSessionMiddleware` found for a signed-in page.
    static func signedIn(_ context: RelayRequestContext) throws -> ConsoleSession {
        guard let session = context.consoleSession else { throw BearerAuthenticator.unauthorized("sign in first") }
        return session
    }

    /// The signed-in session, once a form's CSRF token matches it.
    static func formSession(_ context: RelayRequestContext, form: [String: String]) throws -> ConsoleSession {
        let session = try signedIn(context)
        guard let sent = form["csrf"], constantTimeEqual(session.csrfToken, sent) else {
            throw APIError(.forbidden, "missing or wrong CSRF token; reload the page and try again")
        }
        return session
    }

    func cookie(_ name: String, _ value: String, request: Request, context: RelayRequestContext, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/console",
               secure: secureCookies || auth.isHTTPS(request, context: context), httpOnly: true, sameSite: .strict)
    }

    func render(_ template: String, _ view: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(view, withTemplate: template) ?? "<!doctype html><p>page not found</p>"
        return Response(status: status, headers: Self.pageHeaders(imageSources: imageSources), body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Entrupy's own hosts: its reference names no photo host, so this is our assumption
    /// (`ENTRUPY_RELAY_CONSOLE_IMAGE_SOURCES` replaces it). A photo URL elsewhere in item data does not load,
    /// so a hostile one can neither track support staff nor fire a same-site GET.
    public static let defaultImageSources = ["https://*.entrupy.com"]

    static func pageHeaders(imageSources: [String]) -> HTTPFields {
        let images = imageSources.isEmpty ? "'none'" : imageSources.joined(separator: " ")
        return [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'none'; style-src 'self'; img-src \(images); form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func form(_ request: Request) async throws -> [String: String] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxFormBytes)
        } catch is NIOTooManyBytesError {
            // A form past its deadline (408) or with broken framing (400) is the error middleware's.
            throw APIError(.contentTooLarge, "form is larger than \(maxFormBytes) bytes")
        }
        do {
            var form: [String: String] = [:]
            for (name, value) in try FormURLEncoding.decode(String(decoding: buffer.readableBytesView, as: UTF8.self)) {
                form[name] = value
            }
            return form
        } catch {
            throw APIError(.badRequest, error.description)
        }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
