import RelayModel
import Hummingbird

/// On the console's signed-in pages: the session from its cookie, put in the context (and
/// its caller, for the routes' permissions); without one, a redirect to the sign-in page.
struct ConsoleSessionMiddleware: RouterMiddleware {
    let sessions: any ConsoleSessionStore

    func handle(_ request: Request, context: RelayRequestContext,
                next: (Request, RelayRequestContext) async throws -> Response) async throws -> Response {
        guard let id = request.cookies[ConsoleController.sessionCookie]?.value, !id.isEmpty,
              let session = try await sessions.find(id) else {
            return ConsoleController.redirect("/console/login")
        }
        var context = context
        context.consoleSession = session
        context.caller = session.caller
        return try await next(request, context)
    }
}
