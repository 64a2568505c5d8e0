import Foundation
import Hummingbird
import Logging
import RelayModel
import RelayRuntime

/// `POST /v1/items/{id}/flag` and `/refresh`: support flags an item at Entrupy, or has it
/// fetched now. Without the Entrupy API (`actions` nil) both answer 503.
public struct ItemActionsAPIController: Sendable {
    static let fields: Set<String> = ["reason", "comment"]
    // A whole 2,000-character comment fits however it is escaped (12 bytes for each character outside the BMP).
    static let maxBodyBytes = 64 * 1024

    let items: any ItemQueries
    let actions: ItemActions?

    public init(items: any ItemQueries, actions: ItemActions?) {
        self.items = items
        self.actions = actions
    }

    /// On the signed-in `/v1` group.
    func addRoutes(to v1: RouterGroup<RelayRequestContext>) {
        v1.on(.post, "items/{entrupy_id}/flag", needs: .reconcileItems, use: flag)
        v1.on(.post, "items/{entrupy_id}/refresh", needs: .reconcileItems, use: refresh)
    }

    @Sendable func flag(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let detail = try await item(context)
        let object = try await JSONRequestBody.object(request, maxBytes: Self.maxBodyBytes, fields: Self.fields)
        guard let reason = try JSONRequestBody.string(object, "reason") else { throw APIError(.badRequest, "field \"reason\": is required") }
        let comment = try JSONRequestBody.string(object, "comment")
        let actions = try available()
        let outcome = try await actions.flagger.flag(detail, named: try context.parameters.require("entrupy_id"), reason: reason,
                                                     comment: comment, by: "token \(caller.name)", logger: context.logger)
        return try JSONResponse.make(APIFlagRequest(outcome.request, repeated: outcome.repeated), status: outcome.repeated ? .ok : .created)
    }

    @Sendable func refresh(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let actions = try available()
        let detail = try await item(context)
        let outcome = try await Self.refresh(detail.entrupyID, with: actions.refresher, logger: context.logger)
        context.logger.info("api: refresh requested", metadata: ["entrupy_id": "\(detail.entrupyID)", "by": "\(caller.name)",
                                                               "action": "\(outcome.action)"])
        return try JSONResponse.make(APIRefreshAccepted(entrupyID: detail.entrupyID, outcome: outcome), status: .accepted)
    }

    /// The refresh, or 503 when the database could not queue it.
    static func refresh(_ entrupyID: String, with refresher: any ItemRefreshing, logger: Logger) async throws -> RefreshOutcome {
        do {
            return try await refresher.refreshNow(entrupyID: entrupyID)
        } catch {
            logger.warning("refresh: not queued", metadata: ["error": "\(StoreFailure.describe(error))"])
            throw APIError(.serviceUnavailable, "the fetch could not be queued; retry later", headers: [.retryAfter: "5"])
        }
    }

    func available() throws -> ItemActions {
        guard let actions else {
            throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay (ENTRUPY_RELAY_ENTRUPY_API_TOKEN)")
        }
        return actions
    }

    func item(_ context: RelayRequestContext) async throws -> ItemDetail {
        let id = try context.parameters.require("entrupy_id")
        guard let detail = try await items.detail(id) else { throw ItemsAPIController.notFound(id) }
        return detail
    }
}
