import Hummingbird
import HTTPTypes
import NIOCore
import RelayCore

/// JSON answers in the shape Entrupy's API uses (`{"detail": ...}` for errors).
enum SimResponse {
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: value.jsonText)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(.object(["detail": .string(message)]), status: status)
    }

    static func body(_ request: Request) async throws -> JSONValue {
        let buffer = try await request.body.collect(upTo: 1 << 20)
        guard let value = try? JSONValue.parse(Array(buffer.readableBytesView)) else {
            throw HTTPError(.badRequest, message: "body is not JSON")
        }
        return value
    }
}
