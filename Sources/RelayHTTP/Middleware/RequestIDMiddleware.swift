import Foundation
public import Hummingbird
public import HTTPTypes
import Logging

/// Gives every request an ID: the caller's `X-Request-Id` when it is short and plain, else a
/// new UUID. It goes into every log line of the request and back in the response header,
/// so a support ticket quoting it leads straight to the logs.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = RelayRequestContext
    public static let headerName = HTTPField.Name("X-Request-Id")!

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = request.headers[Self.headerName].flatMap(Self.acceptable) ?? UUID().uuidString.lowercased()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = .string(id)
        do {
            var response = try await next(request, context)
            response.headers[Self.headerName] = id
            return response
        } catch var error as APIError {
            error.headers[Self.headerName] = id
            throw error
        }
    }

    static func acceptable(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count),
              value.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")) })
        else { return nil }
        return value
    }
}
