import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import RelayCore

/// JSON answers of the query API: sorted keys, ISO 8601 dates with milliseconds in UTC.
public enum JSONResponse {
    public static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISODate.text(date))
        }
        return make(bytes: try encoder.encode(value), status: status)
    }

    public static func make(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        make(bytes: Data(value.jsonText.utf8), status: status)
    }

    static func make(bytes: Data, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
