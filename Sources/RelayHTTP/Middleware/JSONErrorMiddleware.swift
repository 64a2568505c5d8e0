import RelayModel
public import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// Makes every failure a JSON `APIError`: unknown routes, Hummingbird's own errors (wrong
/// method, body too large) and anything unexpected, which becomes a logged 500 whose body
/// says nothing about internals. Broken HTTP framing (a chunk size of `ZZZ`) passes through
/// untouched: Hummingbird answers it 400 and closes the connection, whose parser cannot go on.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPParserError {
            throw error
        } catch let error as HTTPError {
            throw APIError(error.status, error.body ?? Self.defaultMessage(for: error.status), headers: error.headers)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "request body is too large")
        } catch let error as RequestBodyTimeout {
            throw error.apiError
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, Self.defaultMessage(for: error.status))
        } catch where StoreFailure.isStatementTimeout(error) {
            // ENTRUPY_RELAY_API_STATEMENT_TIMEOUT_MS: the server's limit, not the caller's mistake, but not a fault either.
            context.logger.warning("a statement ran past its timeout", metadata: ["path": "\(request.uri.path)"])
            var headers = HTTPFields()
            headers[.retryAfter] = "5"
            throw APIError(.serviceUnavailable, "the query took longer than this server allows; narrow it (fewer values, a date range) or retry later",
                           headers: headers)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(.internalServerError, "internal error")
        }
    }

    static func defaultMessage(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "no such route"
        case .methodNotAllowed: "method not allowed on this route"
        case .contentTooLarge: "request body is too large"
        default: status.reasonPhrase.isEmpty ? "request failed" : status.reasonPhrase.lowercased()
        }
    }
}
