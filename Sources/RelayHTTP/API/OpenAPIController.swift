public import Hummingbird
import NIOCore
import RelayModel

/// `GET /openapi.json`: the API's description, public (it holds no data). The document is
/// `Resources/openapi.json`, written by hand to match the handlers (the tests run
/// schemathesis against a live server with it) and compiled into the binary. Its
/// `info.version` is written `"RELEASE"` there and served as this build's release
/// (`RelayRelease.version`, what `entrupy-relay --version` prints), so it has one home.
public struct OpenAPIController: Sendable {
    static let document = ByteBuffer(string: withRelease(String(decoding: PackageResources.openapi_json, as: UTF8.self)))

    public init() {}

    /// The document with its first `"version": "RELEASE"` (the `info` object's) made the release.
    static func withRelease(_ text: String, release: String = RelayRelease.version) -> String {
        guard let range = text.range(of: #""version": "RELEASE""#) else { return text }
        return text.replacingCharacters(in: range, with: #""version": ""# + release + #"""#)
    }

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                     body: .init(byteBuffer: Self.document))
        }
    }
}
