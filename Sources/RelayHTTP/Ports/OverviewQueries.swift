public import RelayModel

/// The console overview's numbers (PostgreSQL in service).
public protocol OverviewQueries: Sendable {
    func overview(days: Int) async throws -> Overview
}
