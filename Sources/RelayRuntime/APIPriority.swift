/// Who is asking the Entrupy API, in the order the shared budget serves them when it runs
/// short: webhook reconciles first (someone is waiting on a change), then a person (SDK
/// authorize, support's re-fetch), then background work (sync, sweep, backfill).
public enum APIPriority: String, Sendable, CaseIterable {
    case webhook
    case interactive
    case background

    /// The share of each second's requests a caller of this priority must leave free: lower
    /// priorities send only while that much is left, so under load the higher ones get it.
    /// People (SDK sign-ins through any number of tokens, support's re-fetches) get at most the
    /// first 30 %: whatever they send, webhook reconciles keep 70 % of the budget and sync,
    /// which sends while less than half is used, at least 20 %.
    public var reserveShare: Double {
        switch self {
        case .webhook: 0
        case .interactive: 0.7
        case .background: 0.5
        }
    }
}
