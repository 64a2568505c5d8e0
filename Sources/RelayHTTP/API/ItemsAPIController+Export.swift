import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RelayModel

extension ItemsAPIController {
    static let exportColumns = ["entrupy_id", "customer_item_id", "result", "result_final", "flag", "brand", "category", "username",
                                "submitted_at", "listed_at", "updated_at"]
    /// Rows read per query: each query is short (well within the API's statement timeout) and
    /// the server holds one chunk at a time, whatever the export's size.
    static let exportChunk = 2_000

    /// `GET /v1/items/export?…`: the whole result of a search as CSV (the search's filters, no
    /// page limit), newest first, streamed chunk by chunk. The filters are checked before the
    /// first byte, so a bad one is a 400 with a JSON body like any other.
    @Sendable func export(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let query = try request.query { pairs throws(QueryParameterError) in
            try ItemSearchQuery.parseFilters(pairs)
        }
        let response = try exports.stream { Self.csvResponse(items: items, query: query, logger: context.logger) }
        context.logger.info("api: export started", metadata: ["by": "\(caller.name)"])
        return response
    }

    /// The streamed CSV of `query`'s whole result (the API's export and the console's button).
    static func csvResponse(items: any ItemQueries, query search: ItemSearchQuery, logger: Logger) -> Response {
        var whole = search
        whole.cursor = nil
        let query = whole
        let name = "items-\(ISODate.text(Date()).prefix(10)).csv"
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(name)\"",
                      .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: CSVRow.line(Self.exportColumns)))
                var cursor: PageCursor?
                var rows = 0
                repeat {
                    let (chunk, next) = try await items.exportChunk(query, after: cursor, limit: Self.exportChunk)
                    var text = ""
                    text.reserveCapacity(chunk.count * 128)
                    for item in chunk { text += Self.csvLine(item) }
                    if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                    rows += chunk.count
                    cursor = next
                } while cursor != nil
                try await writer.finish(nil)
                logger.info("api: export finished", metadata: ["rows": "\(rows)"])
            })
    }

    static func csvLine(_ item: ItemSummary) -> String {
        CSVRow.line([item.entrupyID, item.customerItemID, item.result, item.resultFinal ? "true" : "false", item.flag, item.brand,
                     item.category, item.username, item.submittedAt.map(ISODate.text), ISODate.text(item.listedAt),
                     ISODate.text(item.updatedAt)])
    }
}
