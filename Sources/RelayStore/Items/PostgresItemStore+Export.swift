import Foundation
import PostgresNIO
public import RelayModel

extension PostgresItemStore {
    /// One chunk of a search's whole result, newest first, after `cursor`, without counting:
    /// an export walks these, so no statement runs long and memory stays one chunk.
    public func exportChunk(_ query: ItemSearchQuery, after cursor: PageCursor?, limit: Int) async throws -> ([ItemSummary], PageCursor?) {
        let (items, positions) = try await keysetRows(query, after: cursor, limit: limit)
        let last = items.last.map { PageCursor(time: positions[positions.count - 1], key: $0.entrupyID) }
        return (items, items.count < limit ? nil : last)
    }
}
