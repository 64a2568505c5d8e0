public import AsyncHTTPClient
import Foundation
public import Logging
import Metrics
import NIOCore
import NIOHTTP1
public import RelayModel
public import RelayRuntime

/// The Entrupy REST API (contract section 2): lookup, get, search, authorize-user, health, in
/// the version and at the routes `EntrupyAPIRoutes` gives.
/// Every call first takes a token of its priority from the budget (shared by every replica);
/// a 429 pauses the budget for its `Retry-After` so all callers back off together. Redirects
/// are never followed.
public struct EntrupyAPIClient: Sendable {
    let configuration: EntrupyAPIConfiguration
    let http: HTTPClient
    let budget: any EntrupyAPIBudget
    let logger: Logger

    public init(configuration: EntrupyAPIConfiguration, http: HTTPClient, budget: any EntrupyAPIBudget, logger: Logger) {
        self.configuration = configuration
        self.http = http
        self.budget = budget
        self.logger = logger
    }

    /// An `HTTPClient` configured for the API: no redirects, bounded connect time.
    public static func makeHTTPClient() -> HTTPClient {
        var config = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(30)))
        config.connectionPool = .init(idleTimeout: .seconds(60))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    /// `GET …/lookup/authentications/{customer_item_id}`: the latest authentication for it,
    /// whether Entrupy answers one item or a list of them (an empty list is not found).
    public func lookup(customerItemID: String, priority: APIPriority = .webhook) async throws -> EntrupyItem {
        let json = try await send(.GET, configuration.routes.lookupPath(customerItemID), route: "lookup", priority: priority)
        let item: EntrupyItem?
        do { item = try EntrupyItemParser.parseLookup(json) } catch {
            throw EntrupyAPIError.invalidResponse("\(error)")
        }
        guard let item else { throw EntrupyAPIError.notFound }
        return item
    }

    /// `GET …/authentications/{entrupy_id}`.
    public func item(entrupyID: String, priority: APIPriority = .webhook) async throws -> EntrupyItem {
        let json = try await send(.GET, configuration.routes.itemPath(entrupyID), route: "get", priority: priority)
        return try parseItem(json)
    }

    /// `POST …/search/authentications`: one page (at most the version's limit of items).
    public func search(_ query: SearchQuery, priority: APIPriority = .background) async throws -> SearchPage {
        try SearchPage.parse(try await searchAnswer(query, priority: priority))
    }

    /// A search page's JSON as Entrupy sent it (for `entrupy check`, which looks at its shape).
    public func searchAnswer(_ query: SearchQuery, priority: APIPriority = .background) async throws -> JSONValue {
        var query = query
        query.limit = min(query.limit, configuration.routes.searchLimit)
        do {
            return try await send(.POST, configuration.routes.search, route: "search", priority: priority, body: query.body)
        } catch EntrupyAPIError.notFound {
            // A search that finds nothing answers an empty page: a 404 says the route is not there.
            throw EntrupyAPIError.routeGone(status: 404, path: configuration.routes.search)
        }
    }

    /// The get's JSON as Entrupy sent it, asked as reconciles ask (for `entrupy check`).
    public func itemAnswer(entrupyID: String) async throws -> JSONValue {
        try await send(.GET, configuration.routes.itemPath(entrupyID), route: "get", priority: .interactive)
    }

    /// The lookup's JSON as Entrupy sent it (for `entrupy check`).
    public func lookupAnswer(customerItemID: String) async throws -> JSONValue {
        try await send(.GET, configuration.routes.lookupPath(customerItemID), route: "lookup", priority: .interactive)
    }

    /// `GET …/health`: returns when Entrupy answers `{"status": "ok"}` to this token; throws
    /// `EntrupyAPIError.unauthorized` for a refused token and the other errors as they come.
    public func health() async throws {
        // A check every half minute or so per replica: it goes ahead of background work so /readyz stays current.
        let json: JSONValue
        do {
            json = try await send(.GET, configuration.routes.health, route: "health", priority: .interactive)
        } catch EntrupyAPIError.notFound {
            // Health always exists: a 404 says the route (the version) is not there.
            throw EntrupyAPIError.routeGone(status: 404, path: configuration.routes.health)
        }
        guard json["status"]?.stringValue == "ok" else {
            throw EntrupyAPIError.invalidResponse("health answer is not {\"status\": \"ok\"}")
        }
    }

    /// How long Entrupy asked us to wait (its last 429), or nil: callers that must not wait
    /// (an HTTP request in flight) pass the wait on instead.
    public func rateLimitedFor() async -> Duration? { await budget.remainingPause() }

    /// `POST /v2/integrations/authorize-user` (in either version). A 409 still carries a usable signed request,
    /// with or without the username (then the one stored stays). Entrupy's documented request
    /// carries no `Api-Version`, so none is sent: the v1 routes' 1.4 is not this route's.
    public func authorizeUser(_ request: AuthorizeUserRequest) async throws -> AuthorizeUserResult {
        let body = try JSONValue.parse(Array(JSONEncoder().encode(request)))
        let (status, json) = try await exchange(.POST, configuration.routes.authorizeUser, route: "authorize_user", priority: .interactive,
                                                body: body, accept: [200, 409], apiVersion: nil)
        guard let signed = json["signed_authorization_request"]?.stringValue, !signed.isEmpty else {
            throw EntrupyAPIError.invalidResponse("authorize-user answer lacks signed_authorization_request")
        }
        let username = json["username"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if status == 200, username == nil {
            throw EntrupyAPIError.invalidResponse("authorize-user answered 200 without username")
        }
        return AuthorizeUserResult(signedAuthorizationRequest: signed, username: username, conflict: status == 409)
    }

    private func parseItem(_ json: JSONValue) throws -> EntrupyItem {
        do { return try EntrupyItemParser.parse(json) } catch {
            throw EntrupyAPIError.invalidResponse("\(error)")
        }
    }

    private func send(_ method: HTTPMethod, _ path: String, route: String, priority: APIPriority, body: JSONValue? = nil) async throws -> JSONValue {
        try await exchange(method, path, route: route, priority: priority, body: body, accept: [200], apiVersion: configuration.routes.versionHeader).1
    }

    /// - Parameter apiVersion: the `Api-Version` header, or nil for a route that takes none.
    func exchange(_ method: HTTPMethod, _ path: String, route: String, priority: APIPriority, body: JSONValue?,
                          accept: Set<Int>, apiVersion: String?) async throws -> (Int, JSONValue) {
        try await acquireBudget(priority)
        let request = makeRequest(method, path, body: body, apiVersion: apiVersion)
        let start = ContinuousClock.now
        let (response, bytes) = try await execute(request, route: route, since: start)
        let status = Int(response.status.code)
        record(route: route, status: String(status), since: start)
        if accept.contains(status) {
            do {
                // An empty body (a 204) is no answer, not an unreadable one: the caller decides.
                return (status, bytes.readableBytes == 0 ? .null : try JSONValue.parse(Array(bytes.readableBytesView)))
            } catch {
                throw EntrupyAPIError.invalidResponse("body is not JSON")
            }
        }
        throw await refusal(status: status, response: response, bytes: bytes, path: path, route: route)
    }

    /// Waits for the call budget at the given priority; an unusable budget is the API's error.
    private func acquireBudget(_ priority: APIPriority) async throws {
        do {
            try await budget.acquire(priority)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw EntrupyAPIError.budgetUnavailable(String(describing: error))
        }
    }

    private func makeRequest(_ method: HTTPMethod, _ path: String, body: JSONValue?, apiVersion: String?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: configuration.baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Token " + configuration.token)
        if let apiVersion { request.headers.add(name: "Api-Version", value: apiVersion) }
        request.headers.add(name: "Accept-Language", value: "en")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "entrupy-relay")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body.jsonText))
        }
        return request
    }

    /// The response and its whole body, or a transport error (recorded as the route's `error`).
    private func execute(_ request: HTTPClientRequest, route: String,
                         since start: ContinuousClock.Instant) async throws -> (HTTPClientResponse, ByteBuffer) {
        do {
            // One deadline for the whole exchange: AsyncHTTPClient's ends at the response head,
            // and a peer dripping its body would otherwise hold the call (and a sync's lock) for ever.
            let http = self.http, timeout = configuration.requestTimeout
            return try await withDeadline(timeout) {
                let response = try await http.execute(request, timeout: TimeAmount(timeout))
                return (response, try await response.body.collect(upTo: 8 << 20))
            }
        } catch let error as DeadlineExceeded {
            record(route: route, status: "error", since: start)
            throw EntrupyAPIError.transport("no whole answer within \(error.limit)")
        } catch {
            record(route: route, status: "error", since: start)
            throw EntrupyAPIError.transport(String(describing: error))
        }
    }

    /// The error an unaccepted status is; a 429 also pauses every caller for its Retry-After.
    private func refusal(status: Int, response: HTTPClientResponse, bytes: ByteBuffer, path: String,
                         route: String) async -> EntrupyAPIError {
        switch status {
        case 404: return .notFound
        case 410: return .routeGone(status: 410, path: path)
        case 429:
            let after = RetryAfter.parse(response.headers.first(name: "Retry-After"))
            await budget.pauseCallers(for: after ?? .seconds(1))
            logger.notice("Entrupy API rate limited us", metadata: ["route": "\(route)", "retry_after": "\(after.map { "\($0)" } ?? "-")"])
            return .rateLimited(retryAfter: after)
        case 401, 403: return .unauthorized(status: status)
        case 500...599: return .server(status: status)
        default:
            let text = String(decoding: bytes.readableBytesView.prefix(300), as: UTF8.self)
            return .rejected(status: status, message: text)
        }
    }

    private func record(route: String, status: String, since start: ContinuousClock.Instant) {
        MetricHandles.counter(.entrupyAPIRequests, [("route", route), ("status", status)]).increment()
        MetricHandles.timer(.entrupyAPIDuration, [("route", route)])
            .record(duration: ContinuousClock.now - start)
    }
}
