import Foundation
import Hummingbird
import Logging
import RelayModel

/// `/v1/items`: search, one item with its whole history, a re-fetch on demand, and import of an unseen item.
public struct ItemsAPIController: Sendable {
    let items: any ItemQueries
    /// Nil when the Entrupy API is not configured (import answers 503).
    let importer: (any ItemImporting)?
    /// Exports under way in this process (shared with the console's).
    let exports: ExportGate

    public init(items: any ItemQueries, importer: (any ItemImporting)? = nil, exports: ExportGate = ExportGate(limit: 4)) {
        self.items = items
        self.importer = importer
        self.exports = exports
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.get, "items", needs: .readItems, use: search)
        v1.on(.post, "items/import", needs: .reconcileItems, use: importItem)
        v1.on(.get, "items/export", needs: .readItems, use: export)
        v1.on(.get, "items/{entrupy_id}", needs: .readItems, use: show)
        v1.on(.post, "items/{entrupy_id}/reconcile", needs: .reconcileItems, use: reconcile)
    }

    @Sendable func search(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let query = try request.query { pairs throws(QueryParameterError) in try ItemSearchQuery.parse(pairs) }
        return try JSONResponse.make(APIItemSummary.page(try await items.search(query)))
    }

    @Sendable func show(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try context.parameters.require("entrupy_id")
        guard let detail = try await items.detail(id) else { throw Self.notFound(id) }
        return try JSONResponse.make(APIItemDetail(detail.visible(to: caller.role)))
    }

    @Sendable func reconcile(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try context.parameters.require("entrupy_id")
        guard let detail = try await items.detail(id) else { throw Self.notFound(id) }
        let queued = try await items.queueRefetch(entrupyID: detail.entrupyID, source: .manual)
        context.logger.info("api: reconcile requested", metadata: ["entrupy_id": "\(detail.entrupyID)", "by": "\(caller.name)"])
        return try JSONResponse.make(APIReconcileAccepted(entrupyID: detail.entrupyID, jobID: queued), status: .accepted)
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "no item with Entrupy ID or customer item ID \"\(id.prefix(256))\"")
    }
}
