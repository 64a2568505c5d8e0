public import RelayModel
import Hummingbird
import NIOCore

/// The receiver's 200: the stored event's ID (the original's, for a duplicate).
public struct APIWebhookAccepted: Encodable, Sendable {
    let id: Int64
    let duplicate: Bool

    public init(_ result: IngestResult) {
        id = result.id
        duplicate = result.duplicate
    }

    /// The same JSON `APIJSON` writes for this type (a test holds them equal), written
    /// directly: it answers every webhook, and two plain fields need no encoder.
    var json: String { "{\"duplicate\":\(duplicate),\"id\":\(id)}" }

    var response: Response {
        JSONResponse.make(buffer: ByteBuffer(string: json), status: .ok)
    }
}
