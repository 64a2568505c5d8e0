public import Foundation
public import Logging
public import PostgresNIO
public import RelayModel

/// Silences on PostgreSQL: made, listed and expired early through the API, the CLI and the
/// console; read in force by every deliver worker every few seconds (`SilenceCache`). Every
/// silence is kept after it ends, with who expired it.
public struct PostgresSilenceStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Stores a checked draft made by `author`; the stored silence with its ID.
    public func create(_ draft: SilenceDraft, author: String) async throws -> Silence {
        let rows = try await client.query("""
            INSERT INTO silences (rule, matchers, author, reason, starts_at, expires_at)
            VALUES (\(draft.rule), \(draft.matchers.jsonValue.jsonText)::jsonb, \(author), \(draft.reason), \(draft.startsAt), \(draft.expiresAt))
            RETURNING id, rule, matchers::text, author, reason, starts_at, expires_at, created_at, expired_at, expired_by
            """, logger: logger)
        guard let silence = try await Self.silences(from: rows).first else { throw SilenceNotStored() }
        return silence
    }

    /// Newest first: those still in force or to come when `activeOnly`, else every one (at most `limit`).
    public func list(activeOnly: Bool, limit: Int) async throws -> [Silence] {
        let rows = try await client.query("""
            SELECT id, rule, matchers::text, author, reason, starts_at, expires_at, created_at, expired_at, expired_by FROM silences
            WHERE NOT \(activeOnly) OR (expired_at IS NULL AND expires_at > now())
            ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        return try await Self.silences(from: rows)
    }

    public func silence(id: Int64) async throws -> Silence? {
        let rows = try await client.query("""
            SELECT id, rule, matchers::text, author, reason, starts_at, expires_at, created_at, expired_at, expired_by FROM silences
            WHERE id = \(id)
            """, logger: logger)
        return try await Self.silences(from: rows).first
    }

    /// Ends a silence now, recording who ended it. Nil when there is no such silence; `ended`
    /// false (the silence unchanged) when it had already ended.
    public func expire(id: Int64, by: String) async throws -> (silence: Silence, ended: Bool)? {
        let rows = try await client.query("""
            UPDATE silences SET expired_at = now(), expired_by = \(by)
            WHERE id = \(id) AND expired_at IS NULL AND expires_at > now()
            RETURNING id, rule, matchers::text, author, reason, starts_at, expires_at, created_at, expired_at, expired_by
            """, logger: logger)
        if let ended = try await Self.silences(from: rows).first { return (ended, true) }
        return try await silence(id: id).map { ($0, false) }
    }

    /// The silences in force now or starting within `ahead` (the worker's cache checks each
    /// one's start and end against its own clock), with the database's clock.
    public func inForce(ahead: Duration) async throws -> (silences: [Silence], now: Date) {
        let seconds = Double(ahead.components.seconds)
        let rows = try await client.query("""
            SELECT id, rule, matchers::text, author, reason, starts_at, expires_at, created_at, expired_at, expired_by FROM silences
            WHERE expired_at IS NULL AND expires_at > now() AND starts_at <= now() + \(seconds) * interval '1 second'
            ORDER BY id
            """, logger: logger)
        return (try await Self.silences(from: rows), Date())
    }

    /// The fields of an item a silence may match (nil: no such item).
    public func silenceFields(entrupyID: String) async throws -> EntrupyItem? {
        let rows = try await client.query("""
            SELECT customer_item_id, result, flag, brand, category, username FROM items WHERE entrupy_id = \(entrupyID)
            """, logger: logger)
        for try await (customerItemID, result, flag, brand, category, username)
            in rows.decode((String?, String?, String, String?, String?, String?).self) {
            return EntrupyItem(entrupyID: entrupyID, customerItemID: customerItemID, result: result, flag: flag, brand: brand,
                               category: category, username: username)
        }
        return nil
    }

    static func silences(from rows: PostgresRowSequence) async throws -> [Silence] {
        var silences: [Silence] = []
        for try await (id, rule, matchers, author, reason, starts, expires, created, expiredAt, expiredBy)
            in rows.decode((Int64, String?, String, String, String, Date, Date, Date, Date?, String?).self) {
            var values: [String: [String]] = [:]
            for (field, list) in JSONValue(jsonText: matchers)?.objectValue ?? [:] {
                values[field] = list.arrayValue?.compactMap(\.stringValue) ?? []
            }
            silences.append(Silence(id: id, rule: rule, matchers: SilenceMatchers(stored: values), author: author, reason: reason,
                                    startsAt: starts, expiresAt: expires, createdAt: created, expiredAt: expiredAt, expiredBy: expiredBy))
        }
        return silences
    }
}
