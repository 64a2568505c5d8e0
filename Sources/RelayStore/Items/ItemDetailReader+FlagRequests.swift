import PostgresNIO
import RelayModel

extension ItemDetailReader {
    /// Flags support raised from the relay, oldest first.
    func flagRequests(of entrupyID: String) async throws -> [FlagRequest] {
        try await FlagRequest.requests(from: connection.query("""
            SELECT \(unescaped: FlagRequest.selectList) FROM flag_requests WHERE entrupy_id = \(entrupyID)
            ORDER BY requested_at, id LIMIT 500
            """, logger: logger))
    }
}
