import Foundation
import PostgresNIO
public import RelayModel
import RelayDatabase

extension PostgresDeliveryStore {
    public func delivery(id: Int64) async throws -> DeliveryRecord? {
        try await PreparedStatementRunner.rows(LoadOneStatement(parameter: id), on: client, logger: logger).first
    }

    /// Several deliveries in one query (the deliver handler loads a claimed batch at once).
    public func deliveries(ids: [Int64]) async throws -> [Int64: DeliveryRecord] {
        guard !ids.isEmpty else { return [:] }
        let found = ids.count == 1
            ? try await PreparedStatementRunner.rows(LoadOneStatement(parameter: ids[0]), on: client, logger: logger)
            : try await PreparedStatementRunner.rows(LoadStatement(parameter: ids), on: client, logger: logger)
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What a `DeliveryRecord` is read from: its columns (`record(from:)` reads them in this
    /// order) and the tables they come from.
    static let recordSelect = """
        SELECT d.id, d.item_event_id, d.entrupy_id, d.rule, d.action_index, d.channel, d.target, d.payload::text,
               d.signing_key_id, d.idempotency_key, d.state, d.attempts, d.last_error, d.next_attempt_at, d.created_at,
               d.delivered_at,
               coalesce(e.kind, (SELECT o.kind FROM operational_events o WHERE o.id = d.operational_event_id)),
               d.schedule_base, d.payload_removed, d.attempts_removed_at, d.held_target, d.held_since, d.operational_event_id,
               d.silence_id, d.quiet_until, d.held_behind
        FROM deliveries d LEFT JOIN item_events e ON e.id = d.item_event_id
        """

    /// A row of `recordSelect`.
    static func record(from row: PostgresRow) throws -> DeliveryRecord {
        var cells = PostgresRowCells(row)
        let id: Int64 = try cells.next(), eventID: Int64? = try cells.next(), entrupyID: String? = try cells.next()
        let rule: String = try cells.next(), index: Int = try cells.next(), channel: DeliveryChannel = try cells.next()
        let target: String = try cells.next(), payload: String? = try cells.next(), keyID: String? = try cells.next()
        let key: String = try cells.next(), state: DeliveryState = try cells.next(), attempts: Int = try cells.next()
        let lastError: String? = try cells.next(), next: Date? = try cells.next(), created: Date = try cells.next()
        let delivered: Date? = try cells.next(), kind: String = try cells.next(), scheduleBase: Int = try cells.next()
        let payloadRemoved: String? = try cells.next(), attemptsRemovedAt: Date? = try cells.next()
        let heldTarget: String? = try cells.next(), heldSince: Date? = try cells.next(), operationalID: Int64? = try cells.next()
        let silenceID: Int64? = try cells.next(), quietUntil: Date? = try cells.next()
        var record = DeliveryRecord(
            id: id, itemEventID: eventID, entrupyID: entrupyID, operationalEventID: operationalID, rule: rule, actionIndex: index,
            channel: channel, target: target, payload: payload.flatMap(JSONValue.init(jsonText:)).flatMap { DeliveryPayload(stored: $0, channel: channel) },
            signingKeyID: keyID, idempotencyKey: key, state: state, attempts: attempts, scheduleBase: scheduleBase,
            lastError: lastError, nextAttemptAt: next, createdAt: created, deliveredAt: delivered, transition: kind,
            payloadRemoved: payloadRemoved, attemptsRemovedAt: attemptsRemovedAt,
            heldBy: heldSince == nil ? nil : heldTarget, heldSince: heldSince, silenceID: silenceID, quietUntil: quietUntil)
        try readOrder(from: row, into: &record)
        return record
    }

    /// The deliveries a deliver worker is about to send, by ID. Run for every batch it
    /// claims, so it is prepared once per connection: as `list`'s general statement (every
    /// filter optional) PostgreSQL planned it on every call, at three times the cost of
    /// running it (the notify benchmark's pg_stat_statements: 226 against 73 ms for 748).
    /// A batch of several IDs is still planned for its array (a plan for an array of unknown
    /// length looks ten times dearer, so PostgreSQL never settles on one); a single ID, which
    /// is what a worker running the deliveries its reconcile leased loads, has its own text
    /// that is planned once.
    struct LoadStatement: OneParameterStatement {
        typealias Row = DeliveryRecord
        static let name = "deliveries_load"
        static let sql = withOrderBlocker(recordSelect + " WHERE d.id = ANY($1::bigint[])")

        /// The deliveries' IDs.
        let parameter: [Int64]

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresDeliveryStore.record(from: row)
        }
    }

    /// `LoadStatement` for one ID.
    struct LoadOneStatement: OneParameterStatement {
        typealias Row = DeliveryRecord
        static let name = "deliveries_load_one"
        static let sql = withOrderBlocker(recordSelect + " WHERE d.id = $1::bigint")

        /// The delivery's ID.
        let parameter: Int64

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresDeliveryStore.record(from: row)
        }
    }
}
