import Foundation
import Logging
import Metrics
public import RelayCore
import RelayRuntime
import Synchronization

/// Counts every webhook refused for its signature by shape
/// (`relay_webhook_rejections_total{header, encoding, reason}`) and writes the shape down for
/// admins (`events rejections`), at most `perSecond` a second in this process, each write
/// bounded in time: a flood of forgeries costs the database no more than that, and a slow
/// database never holds a 401.
public final class RejectionRecorder: Sendable {
    let log: (any WebhookRejectionLog)?
    let perSecond: Int
    private let window = Mutex<(second: Int64, count: Int)>((0, 0))

    public init(log: (any WebhookRejectionLog)?, perSecond: Int = 20) {
        self.log = log
        self.perSecond = perSecond
    }

    func record(_ shape: SignatureShape, bodyBytes: Int?, client: String?, requestID: String?, logger: Logger) async {
        Counter(label: "relay_webhook_rejections_total",
                dimensions: [("header", shape.signatureHeader), ("encoding", shape.encoding), ("reason", shape.reason)]).increment()
        guard let log, admit() else { return }
        let rejection = SignatureRejection(shape: shape, bodyBytes: bodyBytes, clientAddress: client, requestID: requestID)
        do {
            try await withDeadline(.seconds(1)) { try await log.recordRejection(rejection) }
        } catch {
            logger.debug("webhook rejection not recorded", metadata: ["error": "\(error)"])
        }
    }

    /// Whether this second still has room.
    private func admit() -> Bool {
        let second = Int64(Date().timeIntervalSince1970)
        return window.withLock { window in
            if window.second != second { window = (second, 0) }
            guard window.count < perSecond else { return false }
            window.count += 1
            return true
        }
    }
}
