import Foundation
import Hummingbird
import HTTPTypes

/// After the bearer or console-session middleware: at most `limit` requests of one token
/// under way at once across every replica (ENTRUPY_RELAY_API_TOKEN_CONCURRENCY); one more is answered 429
/// at once, so a single client's burst of heavy searches or exports cannot take every
/// database connection the API has. A slot is held until the response has been written
/// whole: a streamed export keeps its slot while its chunks are read.
struct TokenConcurrencyMiddleware: RouterMiddleware {
    let slots: any RequestSlots
    let limit: Int

    func handle(_ request: Request, context: RelayRequestContext,
                next: (Request, RelayRequestContext) async throws -> Response) async throws -> Response {
        guard let caller = context.caller else { return try await next(request, context) }
        let stamp: Date?
        do {
            stamp = try await slots.take(tokenID: caller.tokenID, limit: limit)
        } catch {
            context.logger.warning("api: token slots unavailable", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(.serviceUnavailable, "the relay cannot reach its database; retry later", headers: [.retryAfter: "5"])
        }
        guard let stamp else {
            throw APIError(.tooManyRequests,
                           "token \"\(caller.name)\" already has \(limit) requests under way; send the next when one has finished",
                           headers: [.retryAfter: "1"])
        }
        let release = ReleaseOnce { [slots] in await slots.give(tokenID: caller.tokenID, stamp: stamp) }
        do {
            return try await next(request, context).releasing(release)
        } catch {
            await release.run()
            throw error
        }
    }
}
