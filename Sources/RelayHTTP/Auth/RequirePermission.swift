import Hummingbird
import RelayModel

/// A route's declared permission: 403 when the caller's role lacks it. Runs after the group's
/// sign-in middleware; a route reached without a caller is refused (401), never served.
struct RequirePermission: RouterMiddleware {
    let permission: Permission

    func handle(_ request: Request, context: RelayRequestContext,
                next: (Request, RelayRequestContext) async throws -> Response) async throws -> Response {
        guard let caller = context.caller else { throw BearerAuthenticator.unauthorized("sign in first") }
        try BearerAuthenticator.authorize(caller, for: permission)
        return try await next(request, context)
    }
}
