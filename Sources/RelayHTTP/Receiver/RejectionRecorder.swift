import Foundation
import Logging
import Metrics
public import RelayModel
import RelayRuntime
import Synchronization

/// Counts every webhook refused for its signature by shape
/// (`relay_webhook_rejections_total{header, encoding, reason}`) and writes the shape down for
/// admins (`events rejections`) within `RejectionWriteLimit` (20 a second in this process, 10 a
/// minute per client, each shape once a minute per client), each write bounded in time: a flood
/// of forgeries costs the database no more than that and cannot push others' rejections out of
/// the table, and a slow database never holds a 401.
public final class RejectionRecorder: Sendable {
    let log: (any WebhookRejectionLog)?
    private let limit: Mutex<RejectionWriteLimit>

    public init(log: (any WebhookRejectionLog)?, perSecond: Int = 20) {
        self.log = log
        limit = Mutex(RejectionWriteLimit(perSecond: perSecond))
    }

    func record(_ shape: SignatureShape, bodyBytes: Int?, client: String?, requestID: String?, logger: Logger) async {
        MetricHandles.counter(.webhookRejections, [("header", shape.signatureHeader), ("encoding", shape.encoding), ("reason", shape.reason)]).increment()
        let shapeKey = "\(shape.headers.joined(separator: ",")) \(shape.encoding) \(shape.length) \(shape.reason)"
        let second = Int64(Date().timeIntervalSince1970)
        guard let log, limit.withLock({ $0.admit(shape: shapeKey, client: client, epochSeconds: second) }) else { return }
        let rejection = SignatureRejection(shape: shape, bodyBytes: bodyBytes, clientAddress: client, requestID: requestID)
        do {
            try await withDeadline(.seconds(1)) { try await log.recordRejection(rejection) }
        } catch {
            logger.debug("webhook rejection not recorded", metadata: ["error": "\(error)"])
        }
    }
}
