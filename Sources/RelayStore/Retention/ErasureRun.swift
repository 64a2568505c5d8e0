import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayQueue

/// One erasure's statements on its transaction, in order, each step a method: whose data it
/// is (the SDK users mirror, then the usernames' Entrupy user IDs), the items, the webhooks
/// (through the items, and by their own identifiers and bodies), then what the items' deliveries
/// and fetches hold. Answers the counts of `ErasureReport.kinds` and the keys to remember.
struct ErasureRun {
    let selector: ErasureSelector
    let tx: PostgresConnection
    let logger: Logger

    /// A key an erasure remembers (hashed in SQL: `erased_subject_key`), by kind.
    struct Subjects {
        var usernames: [String] = []
        var userIDs: [String] = []
        var entrupyIDs: [String] = []
        var customerItemIDs: [String] = []

        var kinds: [String] {
            usernames.map { _ in "username" } + userIDs.map { _ in "user_id" } + entrupyIDs.map { _ in "entrupy_id" }
                + customerItemIDs.map { _ in "customer_item_id" }
        }
        var values: [String] { usernames + userIDs + entrupyIDs + customerItemIDs }
        /// How many keys these are (a dry run reports it: a run remembers those not remembered yet).
        var distinctCount: Int { Set(zip(kinds, values).map { $0 + "\u{1F}" + $1 }).count }
    }

    func run() async throws -> (counts: [String: Int], subjects: Subjects) {
        var subjects = Subjects()
        let people = try await people()
        subjects.usernames = people.usernames
        subjects.userIDs = try await userIDs(of: people.usernames)
        let matched = try await items(usernames: people.usernames, userIDs: subjects.userIDs)
        var counts: [String: Int] = ["sdk_users": people.rows]
        let webhooks = try await eraseWebhookBodies(itemIDs: matched.map(\.id),
                                                    needles: people.needles + subjects.userIDs.flatMap(JSONStringForms.of))
        counts["webhook_bodies"] = webhooks.count
        // An item known only through a webhook that named the person is theirs too.
        let items = matched + (try await items(entrupyIDs: webhooks.sessions, besides: matched.map(\.id)))
        let ids = items.map(\.id)
        counts["items"] = try await redact(items)
        subjects.entrupyIDs = Array(Set(ids + webhooks.sessions)).sorted()
        if case .customerItemID(let value) = selector { subjects.customerItemIDs = [value] }
        counts["deliveries_cancelled"] = try await cancelDeliveries(itemIDs: ids)
        counts["delivery_payloads"] = try await count("""
            WITH written AS (
                UPDATE deliveries SET payload = NULL, payload_removed = 'erased'
                WHERE entrupy_id = ANY(\(ids)::text[]) AND payload IS NOT NULL
                RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["delivery_replies"] = try await count("""
            WITH written AS (
                UPDATE delivery_attempts a SET response_excerpt = NULL, smtp_reply = NULL
                FROM deliveries d
                WHERE d.id = a.delivery_id AND d.entrupy_id = ANY(\(ids)::text[])
                  AND (a.response_excerpt IS NOT NULL OR a.smtp_reply IS NOT NULL)
                RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["reconciliation_notes"] = try await count("""
            WITH written AS (
                UPDATE reconciliations SET note = NULL WHERE entrupy_id = ANY(\(ids)::text[]) AND note IS NOT NULL RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["flag_comments"] = try await count("""
            WITH written AS (
                UPDATE flag_requests SET comment = NULL, erased_at = now()
                WHERE entrupy_id = ANY(\(ids)::text[]) AND comment IS NOT NULL RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        return (counts, subjects)
    }

    func count(_ query: PostgresQuery) async throws -> Int {
        var total = 0
        for try await value in try await tx.query(query, logger: logger).decode(Int.self) { total = value }
        return total
    }

    /// Whose: the SDK users mirror rows the key names (deleted), the Entrupy usernames they link
    /// to (or the username given), and what a webhook body naming them holds: each username's and
    /// email's JSON string forms.
    func people() async throws -> (rows: Int, usernames: [String], needles: [String]) {
        let query: PostgresQuery
        switch selector {
        case .uniqueUserID(let id):
            query = "DELETE FROM sdk_users WHERE unique_user_id = \(id) RETURNING username, email"
        case .email(let email):
            query = "DELETE FROM sdk_users WHERE lower(email) = lower(\(email)) RETURNING username, email"
        case .username(let name):
            query = "DELETE FROM sdk_users WHERE username = \(name) RETURNING username, email"
        case .customerItemID:
            return (0, [], [])
        }
        var rows = 0
        var usernames: [String] = []
        var emails: [String] = []
        for try await (name, email) in try await tx.query(query, logger: logger).decode((String, String?).self) {
            rows += 1
            usernames.append(name)
            if let email { emails.append(email) }
        }
        if case .username(let name) = selector { usernames.append(name) }
        if case .email(let email) = selector { emails.append(email) }
        usernames = Array(Set(usernames)).sorted()
        // An address is matched as written and lower-cased (the mirror compares it so).
        let addresses = Set(emails + emails.map { $0.lowercased() }).sorted()
        return (rows, usernames, (usernames + addresses).flatMap(JSONStringForms.of))
    }

    /// The Entrupy user IDs (`owner.user_id`, v2's only name for a submitter) of the usernames:
    /// read from the items that carry both.
    func userIDs(of usernames: [String]) async throws -> [String] {
        guard !usernames.isEmpty else { return [] }
        var ids: [String] = []
        for try await id in try await tx.query("""
            SELECT DISTINCT raw #>> '{owner,user_id}' FROM items
            WHERE username = ANY(\(usernames)::text[]) AND raw #>> '{owner,user_id}' IS NOT NULL
              AND raw #>> '{owner,user_id}' <> \(PersonalData.marker.stringValue ?? "")
            """, logger: logger).decode(String.self) { ids.append(id) }
        return ids.sorted()
    }

    /// The items to erase, locked: by username, by Entrupy user ID, or by the customer item ID.
    func items(usernames: [String], userIDs: [String]) async throws -> [(id: String, raw: String)] {
        let customerItemID: String? = if case .customerItemID(let value) = selector { value } else { nil }
        var items: [(id: String, raw: String)] = []
        for try await row in try await tx.query("""
            SELECT entrupy_id, raw::text FROM items
            WHERE username = ANY(\(usernames)::text[]) OR customer_item_id = \(customerItemID)
               OR raw #>> '{owner,user_id}' = ANY(\(userIDs)::text[])
            ORDER BY entrupy_id FOR UPDATE
            """, logger: logger).decode((String, String).self) { items.append((row.0, row.1)) }
        return items
    }

    /// The stored items of these Entrupy IDs but those already matched, locked.
    func items(entrupyIDs: [String], besides matched: [String]) async throws -> [(id: String, raw: String)] {
        let wanted = Set(entrupyIDs).subtracting(matched).sorted()
        guard !wanted.isEmpty else { return [] }
        var items: [(id: String, raw: String)] = []
        for try await row in try await tx.query("""
            SELECT entrupy_id, raw::text FROM items WHERE entrupy_id = ANY(\(wanted)::text[]) ORDER BY entrupy_id FOR UPDATE
            """, logger: logger).decode((String, String).self) { items.append((row.0, row.1)) }
        return items
    }

    /// The items' people fields: their username column, and the personal keys in `raw`.
    func redact(_ items: [(id: String, raw: String)]) async throws -> Int {
        let erasedRaws = items.map { item in
            (JSONValue(jsonText: item.raw).map(PersonalData.erasing) ?? .object([:])).jsonText
        }
        return try await count("""
            WITH written AS (
                UPDATE items i SET username = NULL, raw = e.raw::jsonb, erased_at = now()
                FROM unnest(\(items.map(\.id))::text[], \(erasedRaws)::text[]) AS e (entrupy_id, raw)
                WHERE i.entrupy_id = e.entrupy_id RETURNING 1)
            SELECT count(*)::int FROM written
            """)
    }
}
