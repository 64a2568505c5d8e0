import Foundation
import PostgresNIO
public import RelayModel

extension PostgresItemStore {
    /// The item named by an Entrupy ID, else the latest one with that customer item ID,
    /// with its whole history, all read from one snapshot (a repeatable-read, read-only
    /// transaction): a reconcile committing meanwhile shows in every part or in none.
    public func detail(_ id: String) async throws -> ItemDetail? {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            let reader = ItemDetailReader(connection: connection, logger: logger)
            guard let item = try await reader.item(id) else { return nil }
            return try await reader.withHistory(item)
        }
    }
}
