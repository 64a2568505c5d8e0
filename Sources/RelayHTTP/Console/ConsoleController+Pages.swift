import Foundation
import Hummingbird
import RelayModel

extension ConsoleController {
    /// Fixed notices for the redirect after an action (never text taken from the URL).
    static let notices = [
        "retried": "The delivery will be attempted again now, with the same idempotency key.",
        "reconciling": "The item will be fetched from Entrupy again in a moment; reload to see the result.",
        "already-delivered": "That delivery was already delivered.",
        "payload-removed": "That delivery's payload was removed (retention or erasure): it cannot be sent again.",
        "in-flight": "That delivery is being attempted right now.",
        "imported": "Fetched from Entrupy just now.",
    ]

    @Sendable func searchPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let session = try Self.signedIn(context)
        // An empty form field means "any": drop it rather than refuse it.
        let pairs = try request.queryPairs().filter { !$0.1.isEmpty }
        let query: ItemSearchQuery
        do {
            query = try ItemSearchQuery.parse(pairs)
        } catch {
            var view = ConsoleViews.items(ItemSearchPage(items: [], totalCount: 0, nextCursor: nil), query: ItemSearchQuery(),
                                          lastDays: nil, session: session)
            view["problem"] = error.description
            return render("items", view, status: .badRequest)
        }
        let page = try await items.search(query)
        var view = ConsoleViews.items(page, query: query, lastDays: pairs.first { $0.0 == "last_days" }?.1, session: session)
        // A customer item ID the relay has never seen: offer to fetch it from Entrupy.
        if page.items.isEmpty, query.cursor == nil, query.customerItemIDs.count == 1, importer != nil,
           session.caller.role.allows(.reconcileItems) {
            view["offerImport"] = ["customer_item_id": query.customerItemIDs[0]]
        }
        return render("items", view)
    }

    @Sendable func itemPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let session = try Self.signedIn(context)
        let id = try context.parameters.require("entrupy_id")
        guard let detail = try await items.detail(id) else {
            var view = ConsoleViews.base(title: "No such item", session: session, csrf: session.csrfToken)
            view["problem"] = "No item with Entrupy ID or customer item ID “\(id.prefix(256))”."
            return render("message", view, status: .notFound)
        }
        let done = try request.queryPairs().first { $0.0 == "done" }?.1
        var view = ConsoleViews.item(detail, session: session, notice: done.flatMap { Self.notices[$0] ?? Self.actionNotices[$0] })
        addItemActions(to: &view, detail: detail, session: session)
        return render("item", view)
    }

    @Sendable func retry(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        guard let id = Int64(try context.parameters.require("id")), id > 0 else { throw APIError(.badRequest, "no such delivery") }
        guard let delivery = try await deliveries.delivery(id: id) else { throw APIError(.notFound, "delivery \(id) does not exist") }
        let outcome = try await deliveries.retry(id: id)
        context.logger.info("console: delivery retry", metadata: ["delivery_id": "\(id)", "by": "\(session.caller.name)", "outcome": "\(outcome)"])
        let done = switch outcome {
        case .queued: "retried"
        case .alreadyDelivered: "already-delivered"
        case .inFlight: "in-flight"
        case .payloadRemoved: "payload-removed"
        case .notFound: throw APIError(.notFound, "delivery \(id) does not exist")
        }
        guard let entrupyID = delivery.entrupyID else { return Self.redirect("/console/deliveries?done=\(done)") }
        return Self.redirect("/console/items/\(PercentEncoding.pathSegment(entrupyID))?done=\(done)#delivery-\(id)")
    }

    @Sendable func reconcile(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        let id = try context.parameters.require("entrupy_id")
        guard let detail = try await items.detail(id) else { throw APIError(.notFound, "no such item") }
        try await items.queueRefetch(entrupyID: detail.entrupyID, source: .manual)
        context.logger.info("console: reconcile requested", metadata: ["entrupy_id": "\(detail.entrupyID)", "by": "\(session.caller.name)"])
        return Self.redirect("/console/items/\(PercentEncoding.pathSegment(detail.entrupyID))?done=reconciling")
    }

    /// The console's import: a form with a customer item ID (or Entrupy ID); on success the
    /// item's page, otherwise the search page saying why.
    @Sendable func importItem(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let form = try await Self.form(request)
        let session = try Self.formSession(context, form: form)
        let field = form["customer_item_id"]?.isEmpty == false ? "customer_item_id" : "entrupy_id"
        let target = try ItemImportTarget(field: field, value: form[field])
        func problem(_ text: String, _ status: HTTPResponse.Status) -> Response {
            var view = ConsoleViews.items(ItemSearchPage(items: [], totalCount: 0, nextCursor: nil), query: ItemSearchQuery(),
                                          lastDays: nil, session: session)
            view["problem"] = text
            return render("items", view, status: status)
        }
        guard let importer else { return problem("The Entrupy API is not configured on this relay.", .serviceUnavailable) }
        do {
            let imported = try await importer.importItem(target)
            context.logger.info("console: item imported", metadata: ["entrupy_id": "\(imported.entrupyID)", "by": "\(session.caller.name)"])
            return Self.redirect("/console/items/\(PercentEncoding.pathSegment(imported.entrupyID))?done=imported")
        } catch .notFound {
            return problem("Entrupy has no item “\(target.value.prefix(256))”.", .notFound)
        } catch .unavailable(let reason) {
            return problem("Entrupy could not be asked now (\(reason)); try again in a moment.", .serviceUnavailable)
        }
    }

    /// The search form's "Export CSV": the same filters, the whole result.
    @Sendable func exportItems(_ request: Request, context: RelayRequestContext) async throws -> Response {
        _ = try Self.signedIn(context)
        let pairs = try request.queryPairs().filter { !$0.1.isEmpty }
        let query: ItemSearchQuery
        do {
            query = try ItemSearchQuery.parseFilters(pairs)
        } catch {
            throw APIError(.badRequest, error.description)
        }
        return try exports.stream { ItemsAPIController.csvResponse(items: items, query: query, logger: context.logger) }
    }

    /// The picture at a glance, over the last 30 days.
    @Sendable func overviewPage(_ request: Request, context: RelayRequestContext) async throws -> Response {
        let session = try Self.signedIn(context)
        guard let overview else { throw APIError(.serviceUnavailable, "the overview is not available here") }
        let days = 30
        return render("overview", ConsoleViews.overview(try await overview.overview(days: days), days: days, session: session))
    }
}
