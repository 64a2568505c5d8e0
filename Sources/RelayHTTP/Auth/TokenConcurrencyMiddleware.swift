import Hummingbird
import HTTPTypes

/// After `BearerAuthMiddleware`: at most `slots.limit` requests of one token under way at
/// once (API_TOKEN_CONCURRENCY); one more is answered 429 at once, so a single client's
/// burst of heavy searches cannot take every database connection the API has.
struct TokenConcurrencyMiddleware: RouterMiddleware {
    let slots: SlotCounter<Int64>

    func handle(_ request: Request, context: RelayRequestContext,
                next: (Request, RelayRequestContext) async throws -> Response) async throws -> Response {
        guard let caller = context.caller else { return try await next(request, context) }
        guard slots.take(caller.tokenID) else {
            var headers = HTTPFields()
            headers[.retryAfter] = "1"
            throw APIError(.tooManyRequests,
                           "token \"\(caller.name)\" already has \(slots.limit) requests under way; send the next when one has finished",
                           headers: headers)
        }
        defer { slots.give(caller.tokenID) }
        return try await next(request, context)
    }
}
