import Hummingbird

/// Exports streaming at once in this process, whoever asks (ENTRUPY_RELAY_EXPORT_CONCURRENCY): each holds
/// an API connection for its chunks' queries, so many tokens together cannot take them all.
public final class ExportGate: Sendable {
    let slots: SlotCounter<Int>

    public init(limit: Int) {
        slots = SlotCounter(limit: limit)
    }

    public var limit: Int { slots.limit }

    /// The export's response, its slot held until the body is written; 503 when all are taken.
    func stream(_ make: () -> Response) throws -> Response {
        guard slots.take(0) else {
            throw APIError(.serviceUnavailable, "\(slots.limit) exports are already running; retry in 30 s",
                           headers: [.retryAfter: "30"])
        }
        let slots = self.slots
        return make().releasing(ReleaseOnce { slots.give(0) })
    }

    /// Exports streaming now.
    public var running: Int { slots.count(0) }
}
