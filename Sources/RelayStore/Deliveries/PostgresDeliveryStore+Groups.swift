public import Foundation
import PostgresNIO
public import RelayModel
import RelayDatabase

/// Email groups (`EmailGroup`): one email for the deliveries of a group that are pending when
/// it is due. The deliveries are locked (`FOR UPDATE SKIP LOCKED`) while their email is sent,
/// so two replicas never send one group twice, and settled together, each with its attempt,
/// in the transaction that locked them.
extension PostgresDeliveryStore {
    /// Locks the deliveries of the group `key` (rule `rule`'s action `actionIndex`) that may be
    /// attempted now (pending, or failed and due again) and were created no later than
    /// `createdBy`, oldest first, at most `limit`; when they include `deliveryID`, runs `send`
    /// with them and records what it returns before the transaction commits: the members a
    /// silence matched, silenced by it (`DeliverySilenceWrite`), and the settlements of those
    /// sent, in one statement. Answers nil, sending nothing, when `deliveryID` is not among them
    /// (another replica holds it, or it is not due).
    public func sendGroup(of deliveryID: Int64, rule: String, actionIndex: Int, key: String, createdBy: Date, limit: Int,
                          _ send: @escaping @Sendable ([DeliveryRecord]) async throws -> GroupSend) async throws -> GroupSend? {
        try await client.withTransaction(logger: logger) { tx in
            // One sender per group at a time: two claims scanning the group at once would
            // each skip the rows the other had locked so far, and split it into two emails.
            let sender = try await tx.query("SELECT pg_try_advisory_xact_lock(\(Self.groupLockClass), hashtext(\(key)))", logger: logger)
            var acquired = false
            for try await answer in sender.decode(Bool.self) { acquired = answer }
            guard acquired else { return nil }
            var values = NamedBindings()
            values.set("rule", rule)
            values.set("delivery_id", deliveryID)
            values.set("action_index", actionIndex)
            values.set("group_key", key)
            values.set("created_by", createdBy)
            values.set("limit", limit)
            var members: [DeliveryRecord] = []
            let rows = try await tx.query(PostgresQuery(unsafeSQL: Self.claimGroupSQL.text, binds: values.bindings(for: Self.claimGroupSQL)),
                                          logger: logger)
            for try await row in rows { members.append(try Self.record(from: row)) }
            guard members.contains(where: { $0.id == deliveryID }) else { return nil }
            let sent = try await send(members)
            if !sent.silenced.isEmpty {
                var silence = NamedBindings()
                let writes = sent.silenced.sorted { $0.key < $1.key }.map { DeliverySilenceWrite(deliveryID: $0.key, silenceID: $0.value) }
                DeliverySilenceWrite.setValues(writes, named: "digest_silence", in: &silence)
                _ = try await tx.query(PostgresQuery(unsafeSQL: Self.silenceGroupSQL.text, binds: silence.bindings(for: Self.silenceGroupSQL)),
                                       logger: logger)
            }
            let settlements = sent.settlements
            guard !settlements.isEmpty else { return sent }
            var settle = NamedBindings()
            let writes = settlements.map {
                DeliveryAttemptWrite(deliveryID: $0.deliveryID, attempt: $0.attempt, retryIn: $0.retryIn, ownFailure: $0.ownFailure)
            }
            DeliveryAttemptWrite.setValues(writes, named: "digest", in: &settle)
            _ = try await tx.query(PostgresQuery(unsafeSQL: Self.settleGroupSQL.text, binds: settle.bindings(for: Self.settleGroupSQL)),
                                   logger: logger)
            return sent
        }
    }

    /// The advisory lock class of email groups (the second key is the group key's hash).
    static let groupLockClass: Int32 = 46

    /// The group's deliveries that may be attempted now, locked; found by
    /// `deliveries_email_group` (migration 42). The key is compared whole after its hash. One
    /// held behind an earlier delivery for its item and target (order, migration 40) is left
    /// out: it goes when that one is settled; but not the job's own, which has just passed its
    /// order check (its column may be stale, and would keep it retrying every few seconds).
    static let claimGroupSQL = NamedSQL(recordSelect + """

        WHERE d.rule = :rule::text AND d.action_index = :action_index::int AND d.channel = 'email' AND d.payload ? 'group'
          AND d.state IN ('pending', 'failed') AND (d.held_behind IS NULL OR d.id = :delivery_id::int8)
          AND md5(d.payload->'group'->>'key') = md5(:group_key::text) AND d.payload->'group'->>'key' = :group_key::text
          AND (d.state = 'pending' OR d.next_attempt_at <= now()) AND d.created_at <= :created_by::timestamptz
        ORDER BY d.id
        LIMIT :limit::int
        FOR UPDATE OF d SKIP LOCKED
        """)

    /// The members a silence matched: silenced by it, not sent (`DeliverySilenceWrite`).
    static let silenceGroupSQL = NamedSQL("WITH digest_silence_start AS (SELECT 1)" + DeliverySilenceWrite.writeText(named: "digest_silence") + """

        SELECT count(*)::int8 FROM digest_silence
        """)

    /// Every member's attempt and new state, as a deliver job's finish writes one's
    /// (`DeliveryAttemptWrite`).
    static let settleGroupSQL = NamedSQL("WITH digest_start AS (SELECT 1)" + DeliveryAttemptWrite.writeText(named: "digest") + """

        SELECT count(*)::int8 FROM digest
        """)
}
