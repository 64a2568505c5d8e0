public import RelayModel

/// Support's "refresh now": the item fetched from Entrupy at once, coalesced with any fetch under way.
public protocol ItemRefreshing: Sendable {
    func refreshNow(entrupyID: String) async throws -> RefreshOutcome
}
