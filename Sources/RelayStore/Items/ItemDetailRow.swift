import Foundation
import PostgresNIO
import RelayModel
import RelayDatabase

/// One row of an item's detail statement, by name: the summary's columns, then what only the
/// detail shows.
struct ItemDetailRow {
    /// The columns `init(_:)` reads, in order (a constant: no value is ever spliced in).
    static let selectList = ItemSummary.selectList + ", model, certificate_url, first_seen_at, fetched_at, raw::text"

    var summary: ItemSummary
    var model: String?
    var certificateURL: String?
    var firstSeenAt: Date
    var fetchedAt: Date
    /// The item as Entrupy last answered it, as JSON text.
    var raw: String

    init(_ row: PostgresRow) throws {
        var cells = PostgresRowCells(row)
        summary = try ItemSummary(cells: &cells)
        model = try cells.next()
        certificateURL = try cells.next()
        firstSeenAt = try cells.next()
        fetchedAt = try cells.next()
        raw = try cells.next()
    }

    /// The item without its history. The raw item was stored from a parsed answer, so it
    /// parses; if not, it has no details.
    var detail: ItemDetail {
        ItemDetail(item: summary, model: model, certificateURL: certificateURL, firstSeenAt: firstSeenAt, fetchedAt: fetchedAt,
                   transitions: [], reconciliations: [], webhooks: [], deliveries: [],
                   details: (try? JSONValue.parse(Array(raw.utf8))).map(ItemDetails.read) ?? ItemDetails())
    }
}
