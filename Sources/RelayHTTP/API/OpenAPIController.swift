import Hummingbird
import NIOCore

/// `GET /openapi.json`: the API's description, public (it holds no data).
public struct OpenAPIController: Sendable {
    public init() {}

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
    }
}
