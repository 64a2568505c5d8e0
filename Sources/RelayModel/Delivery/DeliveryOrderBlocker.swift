/// The delivery a delivery waits for (order per item and target): the latest earlier one for
/// the same item and target that is still pending or failed. Read with the delivery by the
/// deliver handler's load, never stored.
public struct DeliveryOrderBlocker: Sendable, Equatable {
    public var id: Int64
    /// How long until its next attempt is due, by the database's clock (negative: due now, or
    /// being sent); nil when none is scheduled (held by its target's breaker).
    public var dueIn: Duration?

    public init(id: Int64, dueIn: Duration?) {
        self.id = id
        self.dueIn = dueIn
    }

    /// An earlier unsettled delivery of the same item, channel and `target` column, as the load
    /// reads it: a callback's column is only its scheme and host (`MaskedURL`), so its URL is
    /// read too, to tell endpoints apart.
    public struct Candidate: Sendable, Equatable {
        public var id: Int64
        /// The callback's URL; empty for an email (its `target` names the recipients).
        public var url: String
        public var dueIn: Duration?

        public init(id: Int64, url: String, dueIn: Duration?) {
            self.id = id
            self.url = url
            self.dueIn = dueIn
        }
    }

    /// What `delivery` waits for among `candidates` (latest first): the first sent to the same
    /// target as `TargetKey` defines it: an email to the same recipients (the load matched its
    /// `target`); a callback to the same endpoint (scheme, host, port and path; not the query).
    /// Pure. Nil: nothing earlier is unsettled there, or it is operational (no item).
    public static func first(among candidates: [Candidate], for delivery: DeliveryRecord) -> DeliveryOrderBlocker? {
        guard !delivery.isOperational, delivery.entrupyID != nil else { return nil }
        let endpoint = delivery.channel == .webhook ? TargetKey.of(delivery) : nil
        let found = candidates.first { candidate in
            guard let endpoint else { return true }
            return TargetKey.endpoint(of: candidate.url) == endpoint
        }
        return found.map { DeliveryOrderBlocker(id: $0.id, dueIn: $0.dueIn) }
    }
}

extension DeliveryRecord {
    /// What the API, the console and the CLI show as `held behind`: the earlier delivery it waits
    /// for, while it is itself waiting (pending or failed).
    public var shownHeldBehind: Int64? {
        state == .pending || state == .failed ? heldBehind : nil
    }
}
