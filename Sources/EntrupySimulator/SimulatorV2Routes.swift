import Foundation
import Hummingbird

/// Entrupy's v2 item routes: v1's operations under `/v2` (contract 2a names operations, not
/// paths; the project assumes these) answering the v2 item. They sit on the same gated group as
/// v1's, so the token check, rate limit, injected latency and failures, and the per-route stats
/// treat both alike; whether they are served at all (`api_version`) is the gate's to say.
/// `POST /v2/integrations/authorize-user` stays with `SimulatorAPIController`: it predates these.
struct SimulatorV2Routes: Sendable {
    let store: SimulatorStore

    /// v2's page size when a search gives no `limit` (v1's is 20 here); at most 25 either way.
    static let defaultSearchLimit = 10

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.get("/v2/health") { _, _ in
            SimResponse.json(.object(["status": .string("ok")]))
        }
        // The same answer as v1's, `lookup_answers_list` included, in the v2 shape.
        api.get("/v2/lookup/authentications/:customer_item_id") { _, context in
            let raw = try context.parameters.require("customer_item_id")
            let found = store.lookupAll(customerItemID: raw.removingPercentEncoding ?? raw)
            guard let latest = found.last else { return SimResponse.error(.notFound, "Not found.") }
            if store.behaviour.lookupAnswersList { return SimResponse.json(.object(["items": .array(found.map(\.jsonV2))])) }
            return SimResponse.json(.object(["item": latest.jsonV2]))
        }
        api.get("/v2/authentications/:entrupy_id") { _, context in
            guard let item = store.visibleItem(try context.parameters.require("entrupy_id")) else {
                return SimResponse.error(.notFound, "Not found.")
            }
            return SimResponse.json(.object(["item": item.jsonV2]))
        }
        // v1's filters and date range; v2's default limit, and `next_cursor` always one string
        // (null on the last page) as v2 documents it, whatever `search_cursor_string` says.
        // `format_options` and other keys v2 knows are ignored, as v1's unknown keys are.
        api.post("/v2/search/authentications") { request, _ in
            let search = try SimSearch(try await SimResponse.body(request), defaultLimit: Self.defaultSearchLimit)
            let behaviour = store.behaviour
            let page = search.run(in: store, cursorAsString: true,
                                  requireCategory: behaviour.searchRequiresCategory, answerNothing: behaviour.searchAnswersNothing)
            return SimResponse.json(.object([
                "items": .array(page.items.map(\.jsonV2)),
                "item_count": .number(page.items.count),
                "total_count": page.total.map { SimJSON.number($0) } ?? .null,
                "next_cursor": page.nextCursor,
            ]))
        }
    }
}
