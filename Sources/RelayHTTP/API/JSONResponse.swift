import Foundation
public import Hummingbird
public import HTTPTypes
import NIOCore
import RelayModel

/// JSON answers of the query API, written by `APIJSON` from the response types.
public enum JSONResponse {
    public static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        make(bytes: try APIJSON.encode(value), status: status)
    }

    static func make(bytes: Data, status: HTTPResponse.Status) -> Response {
        make(buffer: ByteBuffer(bytes: bytes), status: status)
    }

    static func make(buffer: ByteBuffer, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: buffer))
    }
}
