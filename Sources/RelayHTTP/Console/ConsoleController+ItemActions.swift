import Foundation
import Hummingbird
import RelayModel

extension ConsoleController {
    /// Fixed notices for the redirect after a flag or a refresh (never text taken from the URL).
    static let actionNotices = [
        "flagged": "Entrupy accepted the flag; its support will review the result. The flag shows on the timeline.",
        "flag-repeated": "This flag was already raised (same reason and comment): Entrupy was not asked again.",
        "refresh-queued": "The item will be fetched from Entrupy now, ahead of waiting work; reload to see the result.",
        "refresh-moved_up": "A fetch of this item was already queued: it now runs first; reload to see the result.",
        "refresh-running": "A fetch of this item is running now; reload in a moment to see the result.",
        "refresh-fetching": "The item is being fetched from Entrupy right now; reload in a moment to see the result.",
    ]

    /// The item page's flag form and refresh button, for a reader who may act on items.
    func addItemActions(to view: inout [String: Any], detail: ItemDetail, session: ConsoleSession) {
        guard let actions, session.caller.role.allows(.reconcileItems) else { return }
        view["canRefresh"] = true
        let eligibility = actions.flagger.eligibility(detail)
        var flag: [String: Any] = ["flaggable": eligibility.flaggable, "any_reason": eligibility.reasons.isEmpty,
                                   "from_entrupy": eligibility.reasonSource == .entrupy]
        flag["reasons"] = eligibility.reasons.map { reason -> [String: Any] in
            ["id": reason.id ?? "", "label": reason.label ?? reason.id ?? ""]
        }
        if let refusal = eligibility.refusal { flag["refusal"] = refusal }
        view["flag"] = flag
    }

    /// The item page's flag form: on success the item's page saying so, otherwise the item's
    /// page with the relay's words and the error's status.
    @Sendable func flagItem(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        let detail = try await actionItem(context)
        guard let actions else { throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay") }
        do {
            let outcome = try await actions.flagger.flag(detail, reason: form["reason"] ?? "", comment: form["comment"],
                                                         by: "console \(session.caller.name)", logger: context.logger)
            let done = outcome.repeated ? "flag-repeated" : "flagged"
            return Self.redirect("/console/items/\(PercentEncoding.pathSegment(detail.entrupyID))?done=\(done)")
        } catch let error as APIError {
            let current = try await items.detail(detail.entrupyID) ?? detail
            var view = ConsoleViews.item(current, session: session, notice: nil)
            addItemActions(to: &view, detail: current, session: session)
            view["problem"] = "The flag was not raised: \(error.message)"
            return render("item", view, status: error.status)
        }
    }

    /// The item page's "Refresh now".
    @Sendable func refreshItem(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        let detail = try await actionItem(context)
        guard let actions else { throw APIError(.serviceUnavailable, "the Entrupy API is not configured on this relay") }
        let outcome = try await ItemActionsAPIController.refresh(detail.entrupyID, with: actions.refresher, logger: context.logger)
        context.logger.info("console: refresh requested", metadata: ["entrupy_id": "\(detail.entrupyID)", "by": "\(session.caller.name)",
                                                                   "action": "\(outcome.action)"])
        return Self.redirect("/console/items/\(PercentEncoding.pathSegment(detail.entrupyID))?done=refresh-\(outcome.action)")
    }

    func actionItem(_ context: RelayRequestContext) async throws -> ItemDetail {
        let id = try context.parameters.require("entrupy_id")
        guard let detail = try await items.detail(id) else { throw APIError(.notFound, "no such item") }
        return detail
    }
}
