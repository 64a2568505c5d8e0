public import RelayModel

/// What the query API and the console read and ask about items (PostgreSQL in service,
/// an in-memory double in the router tests).
public protocol ItemQueries: Sendable {
    func search(_ query: ItemSearchQuery) async throws -> ItemSearchPage
    func detail(_ id: String) async throws -> ItemDetail?
    /// A chunk of the whole result, after `cursor`; the cursor of the next chunk, nil at the end.
    func exportChunk(_ query: ItemSearchQuery, after cursor: PageCursor?, limit: Int) async throws -> ([ItemSummary], PageCursor?)
    /// Queues a fetch of the item now; nil when one is already queued.
    @discardableResult func queueRefetch(entrupyID: String, source: ReconcileSource) async throws -> Int64?
}
