public import Foundation

/// Leases on items across replicas (`PostgresFetchLeases`, wired in RelayApp): one replica
/// fetches an item at a time; a lease expires on its own when its holder dies.
public protocol FetchLeasing: Sendable {
    /// Takes the lease of `key` when nobody holds it (or the holder's expired); nil when another holds it.
    func take(_ key: String) async throws -> UUID?
    /// Ends the lease `holder` took (nothing when it expired and another took it over).
    func release(_ key: String, holder: UUID) async throws
    /// How long a lease lasts unless released: longer than a fetch and its commit can take.
    var duration: Duration { get }
}
