import Foundation
import PostgresNIO
import RelayModel

extension FlagRequest {
    /// The columns `requests(from:)` reads, in order (a constant: no value is ever spliced in).
    static let selectList = """
        id, entrupy_id, reason, comment, requested_by, requested_at, state, answered_at, entrupy_status, answer
        """

    static func requests(from rows: PostgresRowSequence) async throws -> [FlagRequest] {
        var requests: [FlagRequest] = []
        for try await row in rows.decode((Int64, String, String, String?, String, Date, String, Date?, Int?, String?).self) {
            requests.append(FlagRequest(
                id: row.0, entrupyID: row.1, reason: row.2, comment: row.3, requestedBy: row.4, requestedAt: row.5,
                state: FlagRequest.State(rawValue: row.6) ?? .failed, answeredAt: row.7, entrupyStatus: row.8, answer: row.9))
        }
        return requests
    }
}
