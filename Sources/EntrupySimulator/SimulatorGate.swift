import Hummingbird
import HTTPTypes

/// Checks `Authorization: Token …` and `Api-Version`, applies the rate limit, the injected
/// latency and the injected error rate, and counts every request.
struct SimulatorGate: RouterMiddleware {
    let store: SimulatorStore
    let token: String

    func handle(_ request: Request, context: BasicRequestContext, next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
        store.count { $0.requests += 1 }
        let behaviour = store.behaviour
        if behaviour.latencyMilliseconds > 0 { try await Task.sleep(for: .milliseconds(behaviour.latencyMilliseconds)) }
        guard let header = request.headers[.authorization], header.hasPrefix("Token "), String(header.dropFirst(6)) == token else {
            return SimResponse.error(.unauthorized, "Invalid token.")
        }
        guard request.headers[HTTPField.Name("Api-Version")!] != nil else {
            return SimResponse.error(.badRequest, "Api-Version header required")
        }
        guard store.admit(token: token) else {
            store.count { $0.rateLimited += 1 }
            var response = SimResponse.error(.tooManyRequests, "Request was throttled.")
            response.headers[.retryAfter] = "1"
            return response
        }
        if behaviour.errorRate > 0, Double.random(in: 0..<1) < behaviour.errorRate {
            store.count { $0.errorsInjected += 1 }
            return SimResponse.error(.internalServerError, "simulated failure")
        }
        return try await next(request, context)
    }
}
