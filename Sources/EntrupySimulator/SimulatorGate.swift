import Hummingbird
import HTTPTypes

/// In front of every API route, v1 and v2 alike, in this order: counts the request (per route,
/// and for the peak rate), waits the injected latency, checks `Authorization: Token …` (401),
/// answers a route the `api_version` in force does not serve (v1 retired: `v1_retired_status`;
/// no v2: 404), on v1 routes checks `Api-Version` (400), applies the per-token rate limit (429 +
/// `Retry-After`), then the injected failures: `error_rate` (500) and `api_error_rate` (503 +
/// `Retry-After: 1`). A refused version is still counted, so a benchmark sees the calls, but
/// takes no rate-limit token and draws no failure: the route is not there to fail.
struct SimulatorGate: RouterMiddleware {
    let store: SimulatorStore
    let token: String

    func handle(_ request: Request, context: BasicRequestContext,
                next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
        store.recordAPIRequest(route: "\(request.method) \(context.endpointPath ?? request.uri.path)")
        let behaviour = store.behaviour
        if behaviour.latencyMilliseconds > 0 { try await Task.sleep(for: .milliseconds(behaviour.latencyMilliseconds)) }
        guard let header = request.headers[.authorization], header.hasPrefix("Token "), String(header.dropFirst(6)) == token else {
            return SimResponse.error(.unauthorized, "Invalid token.")
        }
        if let refusal = Self.versionRefusal(path: request.uri.path, behaviour: behaviour) { return refusal }
        // The v1 routes want the header; Entrupy's documented v2 authorize-user request has none
        // (its v2 reference: "most endpoints also accept" it).
        if request.uri.path.hasPrefix("/v1/"), let apiVersion = HTTPField.Name("Api-Version"), request.headers[apiVersion] == nil {
            return SimResponse.error(.badRequest, "Api-Version header required")
        }
        guard store.admit(token: token) else {
            store.count { $0.rateLimited += 1 }
            return Self.withRetryAfter(SimResponse.error(.tooManyRequests, "Request was throttled."))
        }
        let failure = store.draw { random, behaviour -> HTTPResponse.Status? in
            if random.chance(behaviour.errorRate) { return .internalServerError }
            if random.chance(behaviour.apiErrorRate) { return .serviceUnavailable }
            return nil
        }
        switch failure {
        case .internalServerError?:
            store.count { $0.errorsInjected += 1 }
            return SimResponse.error(.internalServerError, "simulated failure")
        case .serviceUnavailable?:
            store.count { $0.apiErrors503 += 1 }
            return Self.withRetryAfter(SimResponse.error(.serviceUnavailable, "Service temporarily unavailable."))
        default:
            return try await next(request, context)
        }
    }

    /// The answer of a route the `api_version` in force does not serve, or nil when it is served.
    /// `/v2/integrations/authorize-user` is served in every mode: it was v2 before v2 was.
    private static func versionRefusal(path: String, behaviour: SimulatorBehaviour) -> Response? {
        switch behaviour.apiVersion {
        case .both:
            return nil
        case .v2Only:
            guard path.hasPrefix("/v1/") else { return nil }
            return SimResponse.error(behaviour.v1RetiredStatus == 404 ? .notFound : .gone, "API v1 is retired; use v2")
        case .v1Only:
            guard path.hasPrefix("/v2/"), !path.hasPrefix("/v2/integrations/") else { return nil }
            return SimResponse.error(.notFound, "Not found.")
        }
    }

    private static func withRetryAfter(_ response: Response) -> Response {
        var response = response
        response.headers[.retryAfter] = "1"
        return response
    }
}
