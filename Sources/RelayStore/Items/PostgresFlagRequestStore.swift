import Foundation
import Logging
public import PostgresNIO
public import RelayModel

/// Flags raised from the relay (`flag_requests`, migration 38). A request is opened `pending`
/// before Entrupy is asked and finished with its answer; a repeat of a live one (pending or
/// succeeded: same item, reason and comment) is that one, so a burst of repeats asks once.
public struct PostgresFlagRequestStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// A request left pending this long had its asker die: it no longer holds its repeats back.
    static let abandonedAfterSeconds = 300
    /// How long an accepted flag stands for its repeats: a double click, a retried request, the
    /// moments before the item's fetch shows the flag. After it, the same request is asked anew
    /// (the flag may have been resolved since; if not, the item's eligibility refuses it).
    static let repeatWindowSeconds = 300

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// A new pending request, or the live one it repeats (`isNew` false).
    public func open(entrupyID: String, reason: String, comment: String?, requestedBy: String) async throws -> (request: FlagRequest, isNew: Bool) {
        try await client.query("""
            UPDATE flag_requests SET state = 'failed', answered_at = now(), answer = 'no answer was recorded (the relay stopped while asking)'
            WHERE entrupy_id = \(entrupyID) AND reason = \(reason) AND coalesce(comment, '') = coalesce(\(comment)::text, '')
              AND state = 'pending' AND requested_at < now() - \(Self.abandonedAfterSeconds) * interval '1 second'
            """, logger: logger)
        try await client.query("""
            UPDATE flag_requests SET superseded_at = now()
            WHERE entrupy_id = \(entrupyID) AND reason = \(reason) AND coalesce(comment, '') = coalesce(\(comment)::text, '')
              AND state = 'succeeded' AND erased_at IS NULL AND superseded_at IS NULL
              AND answered_at < now() - \(Self.repeatWindowSeconds) * interval '1 second'
            """, logger: logger)
        for _ in 0..<3 {
            let inserted = try await FlagRequest.requests(from: client.query("""
                INSERT INTO flag_requests (entrupy_id, reason, comment, requested_by) VALUES (\(entrupyID), \(reason), \(comment), \(requestedBy))
                ON CONFLICT (entrupy_id, reason, coalesce(comment, '')) WHERE state IN ('pending', 'succeeded') AND erased_at IS NULL AND superseded_at IS NULL DO NOTHING
                RETURNING \(unescaped: FlagRequest.selectList)
                """, logger: logger))
            if let request = inserted.first { return (request, true) }
            let live = try await FlagRequest.requests(from: client.query("""
                SELECT \(unescaped: FlagRequest.selectList) FROM flag_requests
                WHERE entrupy_id = \(entrupyID) AND reason = \(reason) AND coalesce(comment, '') = coalesce(\(comment)::text, '')
                  AND state IN ('pending', 'succeeded') AND erased_at IS NULL AND superseded_at IS NULL
                ORDER BY id DESC LIMIT 1
                """, logger: logger))
            if let request = live.first { return (request, false) }
        }
        throw FlagRequestContended()
    }

    /// Records Entrupy's answer (or why none came).
    public func finish(id: Int64, state: FlagRequest.State, entrupyStatus: Int?, answer: String) async throws -> FlagRequest? {
        try await FlagRequest.requests(from: client.query("""
            UPDATE flag_requests SET state = \(state.rawValue), answered_at = now(), entrupy_status = \(entrupyStatus), answer = \(answer)
            WHERE id = \(id)
            RETURNING \(unescaped: FlagRequest.selectList)
            """, logger: logger)).first
    }
}

/// The live request for a flag kept finishing while a repeat looked for it.
struct FlagRequestContended: Error, CustomStringConvertible {
    var description: String { "the flag request kept changing while it was opened; try again" }
}
