import RelayModel
public import Foundation
import Logging
public import PostgresNIO
import RelayDatabase

/// Requests under way per API token, counted in PostgreSQL so that every replica shares one
/// cap (a count in each process's memory let N replicas allow N times it). A slot is the
/// expiry time stored in the token's row: given back when the response has been written, and
/// lapsing by itself after `lifetime` if its process died first.
public struct PostgresRequestSlots: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Longer than any request the API serves (a streamed export included).
    let lifetime: Duration

    public init(client: PostgresClient, lifetime: Duration = .seconds(900), logger: Logger) {
        self.client = client
        self.lifetime = lifetime
        self.logger = logger
    }

    /// Takes a slot for `tokenID` when fewer than `limit` unexpired ones are held; returns the
    /// slot's stamp (to give it back), or nil when the token is at its limit. The row's lock
    /// orders takers of one token across replicas, and its array is their whole state.
    public func take(tokenID: Int64, limit: Int) async throws -> Date? {
        for _ in 0..<2 {
            let rows = try await client.query("""
                WITH current AS (
                    SELECT held, clock_timestamp() AS at FROM api_token_slots WHERE token_id = \(tokenID) FOR UPDATE),
                live AS (
                    SELECT at, coalesce((SELECT array_agg(h) FROM unnest(held) AS h WHERE h > at), '{}') AS held FROM current),
                taken AS (
                    UPDATE api_token_slots SET held = live.held || (live.at + \(lifetime.milliseconds) * interval '1 millisecond')
                    FROM live WHERE token_id = \(tokenID) AND cardinality(live.held) < \(limit)
                    RETURNING live.at + \(lifetime.milliseconds) * interval '1 millisecond' AS stamp)
                SELECT (SELECT stamp FROM taken), (SELECT count(*) FROM current)::int8
                """, logger: logger)
            for try await (stamp, found) in rows.decode((Date?, Int64).self) {
                if let stamp { return stamp }
                if found > 0 { return nil }
            }
            try await client.query("INSERT INTO api_token_slots (token_id) VALUES (\(tokenID)) ON CONFLICT DO NOTHING", logger: logger)
        }
        return nil
    }

    /// Gives back the slot `take` returned (one of equal stamps: they are interchangeable).
    public func give(tokenID: Int64, stamp: Date) async {
        do {
            try await client.query("""
                UPDATE api_token_slots
                SET held = held[1 : array_position(held, \(stamp)) - 1] || held[array_position(held, \(stamp)) + 1 :]
                WHERE token_id = \(tokenID) AND array_position(held, \(stamp)) IS NOT NULL
                """, logger: logger)
        } catch {
            logger.warning("a token's request slot was not given back; it lapses by itself",
                           metadata: ["error": "\(StoreFailure.describe(error))"])
        }
    }
}
