import NIOCore
import Synchronization

/// The first `limit` bytes of a response body, filled by a reader that may be cut off by a
/// deadline: what arrived by then is kept.
final class ExcerptBuffer: Sendable {
    let limit: Int
    private let stored = Mutex<[UInt8]>([])

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds what fits; true once the excerpt is full (stop reading).
    func append(_ chunk: ByteBuffer) -> Bool {
        stored.withLock { bytes in
            bytes += chunk.readableBytesView.prefix(max(0, limit - bytes.count))
            return bytes.count >= limit
        }
    }

    var bytes: [UInt8] { stored.withLock { $0 } }
}
