/// Where the count folding moves the item count changes that writes appended into the rollup
/// (`PostgresItemStore`, wired in RelayApp). Safe to run from any number of workers.
public protocol CountFolding: Sendable {
    /// Returns how many rollup rows changed.
    func foldCountChanges() async throws -> Int
}
