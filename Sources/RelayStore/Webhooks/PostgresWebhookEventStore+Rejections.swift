import Foundation
import PostgresNIO
public import RelayModel

extension PostgresWebhookEventStore {
    /// The rejections kept: about the newest 1,000.
    public static let rejectionsKept = 1_000

    /// Records a refused webhook's shape and drops what falls past the newest 1,000.
    public func recordRejection(_ rejection: SignatureRejection) async throws {
        let shape = rejection.shape
        try await client.query("""
            WITH added AS (
                INSERT INTO webhook_rejections (reason, headers, encoding, value_length, body_bytes, client_address, request_id)
                VALUES (\(shape.reason), \(shape.headers), \(shape.encoding), \(shape.length), \(rejection.bodyBytes),
                        \(rejection.clientAddress), \(rejection.requestID))
                RETURNING id)
            DELETE FROM webhook_rejections WHERE id <= (SELECT id FROM added) - \(Self.rejectionsKept)
            """, logger: logger)
    }

    /// The newest first.
    public func rejections(limit: Int) async throws -> [SignatureRejection] {
        let rows = try await client.query("""
            SELECT id, received_at, reason, headers, encoding, value_length, body_bytes, client_address, request_id
            FROM webhook_rejections ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        var found: [SignatureRejection] = []
        for try await (id, at, reason, headers, encoding, length, body, client, request) in rows.decode(
            (Int64, Date, String, [String], String, Int, Int?, String?, String?).self) {
            found.append(SignatureRejection(id: id, receivedAt: at, shape: SignatureShape(headers: headers, encoding: encoding, length: length, reason: reason),
                                            bodyBytes: body, clientAddress: client, requestID: request))
        }
        return found
    }
}
