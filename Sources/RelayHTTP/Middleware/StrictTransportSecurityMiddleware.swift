public import Hummingbird
import HTTPTypes

/// With an https `ENTRUPY_RELAY_PUBLIC_URL`: every answer tells browsers to use HTTPS only for a year, so
/// a console session cannot be downgraded to plaintext by a network that strips TLS.
public struct StrictTransportSecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { HTTPField.Name("Strict-Transport-Security")! }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            response.headers[Self.header] = "max-age=31536000"
            return response
        } catch let error as APIError {
            var error = error
            error.headers[Self.header] = "max-age=31536000"
            throw error
        }
    }
}
