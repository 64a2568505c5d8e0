import Hummingbird
import NIOCore

/// The photos and certificates the simulator's items point at, served from its own address
/// under `/_sim/media` without a token (a browser showing the relay's console fetches them):
/// generated PNGs, so a local run shows real images. Any name under an item answers, as a CDN
/// would for the item's photos; nothing is stored.
struct SimMediaRoutes: Sendable {
    static let prefix = "/_sim/media"

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("\(Self.prefix)/items/:entrupy_id/photos/:file") { _, context in
            let id = try context.parameters.require("entrupy_id"), file = try context.parameters.require("file")
            return Self.png(seed: id + "/" + file.replacingOccurrences(of: "_micro", with: ""), micro: file.contains("_micro"))
        }
        router.get("\(Self.prefix)/certificates/:entrupy_id/preview.png") { _, context in
            Self.png(seed: "certificate/" + (try context.parameters.require("entrupy_id")), micro: false)
        }
        router.get("\(Self.prefix)/certificates/:entrupy_id") { _, context in
            let id = try context.parameters.require("entrupy_id").filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            let page = "<!doctype html><title>Certificate \(id)</title><h1>Certificate of authenticity</h1><p>Item \(id) (simulated).</p>"
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
    }

    /// A thumbnail is the photo, smaller.
    static func png(seed: String, micro: Bool) -> Response {
        let side = micro ? 32 : 240
        let bytes = SimPNG.image(seed: seed, width: side, height: side)
        return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=3600"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
