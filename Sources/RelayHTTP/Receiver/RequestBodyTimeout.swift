public import Hummingbird
public import HTTPTypes

/// A request's body did not arrive within its deadline (`RequestBodyDeadlineHandler`): the
/// reader of the body gets this instead of the rest. A 408, and the connection is closed.
public struct RequestBodyTimeout: Error, HTTPResponseError, CustomStringConvertible {
    public let limit: Duration

    public var status: HTTPResponse.Status { .requestTimeout }
    public var description: String { "the request body did not arrive within \(limit.components.seconds) s" }

    /// The one answer to it, wherever it is caught: 408, and `Connection: close` (the rest of
    /// the body is not waited for).
    public var apiError: APIError { APIError(.requestTimeout, description, headers: [.connection: "close"]) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try apiError.response(from: request, context: context)
    }
}
