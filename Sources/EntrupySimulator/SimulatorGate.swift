import Hummingbird
import HTTPTypes

/// In front of every API route, in this order: counts the request (per route, and for the peak
/// rate), waits the injected latency, checks `Authorization: Token …` (401) and, on v1 routes,
/// `Api-Version` (400), applies the per-token rate limit (429 + `Retry-After`), then the injected failures:
/// `error_rate` (500) and `api_error_rate` (503 + `Retry-After: 1`).
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

    private static func withRetryAfter(_ response: Response) -> Response {
        var response = response
        response.headers[.retryAfter] = "1"
        return response
    }
}
