import Hummingbird
import HTTPTypes
import NIOCore

/// JSON answers in the shape Entrupy's API uses (`{"detail": ...}` for errors), and request
/// bodies read as the simulator's own JSON.
enum SimResponse {
    static func json(_ value: SimJSON, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: value.bytes)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(.object(["detail": .string(message)]), status: status)
    }

    /// A body of at most 1 MiB parsed as JSON; `SimInputError` when it is not JSON, 413 when
    /// it is larger.
    static func body(_ request: Request) async throws -> SimJSON {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: 1 << 20)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "body is larger than 1 MiB")
        }
        do {
            return try SimJSON.parse(Array(buffer.readableBytesView))
        } catch {
            throw SimInputError("body is not JSON")
        }
    }

    /// The body as an object's fields.
    static func fields(_ request: Request) async throws -> InputFields {
        try InputFields(try await body(request))
    }
}
