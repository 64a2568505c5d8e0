/// Why an item was fetched, recorded on each timeline entry.
public enum ReconcileSource: Sendable, Equatable {
    case webhook(eventID: Int64)
    case sweep
    case backfill
    case manual

    public var label: String {
        switch self {
        case .webhook: "webhook"
        case .sweep: "sweep"
        case .backfill: "backfill"
        case .manual: "manual"
        }
    }

    var webhookEventID: Int64? {
        if case .webhook(let id) = self { return id }
        return nil
    }
}
