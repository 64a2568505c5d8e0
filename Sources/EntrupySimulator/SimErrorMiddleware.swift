import Hummingbird
import Logging

/// Turns every error a route throws into a JSON `{"detail": ...}` answer: bad input is 400,
/// an HTTP error keeps its status (404 for an unknown route, 413 for a body too large), and
/// anything else is a 500 that names the error instead of taking the simulator down.
struct SimErrorMiddleware: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: BasicRequestContext,
                next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as SimInputError {
            return SimResponse.error(.badRequest, error.detail)
        } catch let error as HTTPError {
            let detail = error.status == .notFound ? "Not found." : (error.body ?? error.status.reasonPhrase)
            return SimResponse.error(error.status, detail)
        } catch {
            logger.error("simulator route failed", metadata: ["error": "\(String(reflecting: error))"])
            return SimResponse.error(.internalServerError, "simulator error: \(error)")
        }
    }
}
