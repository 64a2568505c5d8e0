public import Hummingbird
import NIOCore

/// `GET /openapi.json`: the API's description, public (it holds no data). The document is
/// `Resources/openapi.json`, written by hand to match the handlers (the tests run
/// schemathesis against a live server with it) and compiled into the binary.
public struct OpenAPIController: Sendable {
    static let document = ByteBuffer(bytes: PackageResources.openapi_json)

    public init() {}

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                     body: .init(byteBuffer: Self.document))
        }
    }
}
