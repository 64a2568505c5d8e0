import Hummingbird

/// On the `/v1` group: the request's caller from its bearer token (401 without a valid one,
/// 429 for an address that sent too many bad ones), put in the context for the routes.
struct BearerAuthMiddleware: RouterMiddleware {
    let auth: BearerAuthenticator

    func handle(_ request: Request, context: RelayRequestContext,
                next: (Request, RelayRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = try await auth.authenticate(request, context: context)
        return try await next(request, context)
    }
}
