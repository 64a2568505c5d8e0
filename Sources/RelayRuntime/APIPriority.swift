/// Who is asking the Entrupy API, in the order the shared budget serves them when it runs
/// short: webhook reconciles first (someone is waiting on a change), then a person (SDK
/// authorize, support's re-fetch), then background work (sync, sweep, backfill).
public enum APIPriority: String, Sendable, CaseIterable {
    case webhook
    case interactive
    case background

    /// The share of each second's requests a caller of this priority must leave free: lower
    /// priorities send only while that much is left, so under load the higher ones get it.
    public var reserveShare: Double {
        switch self {
        case .webhook: 0
        case .interactive: 0.2
        case .background: 0.5
        }
    }
}
