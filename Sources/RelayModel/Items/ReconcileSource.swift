/// Why an item was fetched, recorded on each timeline entry.
public enum ReconcileSource: Sendable, Equatable {
    case webhook(eventID: Int64)
    case sweep
    case backfill
    case manual
    /// The periodic re-verification by search (`SyncService`).
    case sync

    public var label: String {
        switch self {
        case .webhook: "webhook"
        case .sweep: "sweep"
        case .backfill: "backfill"
        case .manual: "manual"
        case .sync: "sync"
        }
    }

    public var webhookEventID: Int64? {
        if case .webhook(let id) = self { return id }
        return nil
    }
}
