import Foundation
public import Hummingbird
public import HTTPTypes
import NIOCore

/// An error answered as JSON: `{"error": {"status": 401, "message": "..."}}`. Messages are
/// written for the caller and never contain SQL, stack traces or secrets.
public struct APIError: HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }

    struct Body: Encodable {
        struct Detail: Encodable {
            let status: Int
            let message: String
        }
        let error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? APIJSON.encode(Body(error: .init(status: status.code, message: message)))) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
