public import Foundation
import Logging
public import PostgresNIO
import RelayModel

/// Which replica is fetching an item now (`item_fetch_leases`): hints for the item elsewhere
/// wait for that fetch instead of making their own, so a burst costs at most two fetches
/// across replicas, as `KeyedLock` makes it within one. A lease ends when released or, if its
/// holder died, at `expires_at`.
public struct PostgresFetchLeases: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Longer than a fetch and its commit can take (the API's timeout and the store's).
    let duration: Duration

    public init(client: PostgresClient, logger: Logger, duration: Duration) {
        self.client = client
        self.logger = logger
        self.duration = duration
    }

    /// Takes the lease of `key` when nobody holds it (or the holder's expired); nil when another holds it.
    public func take(_ key: String) async throws -> UUID? {
        let holder = UUID()
        let rows = try await client.query("""
            INSERT INTO item_fetch_leases (item_key, holder, expires_at)
            VALUES (\(key), \(holder), now() + \(duration.milliseconds) * interval '1 millisecond')
            ON CONFLICT (item_key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                WHERE item_fetch_leases.expires_at < now()
            RETURNING holder
            """, logger: logger)
        for try await taken in rows.decode(UUID.self) { return taken }
        return nil
    }

    /// Ends the lease `holder` took (nothing when it expired and another took it over).
    public func release(_ key: String, holder: UUID) async throws {
        try await client.query("DELETE FROM item_fetch_leases WHERE item_key = \(key) AND holder = \(holder)", logger: logger)
    }
}
