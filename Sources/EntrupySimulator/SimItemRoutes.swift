import Foundation
import Hummingbird

/// One API version's item routes (health, lookup, get, search) on the gated group, so the token
/// check, rate limit, injected latency and failures, and the per-route stats treat both versions
/// alike; whether a version is served at all (`api_version`) is the gate's to say. v1.4's are
/// documented; v2's are v1's operations under `/v2` (contract 2a names operations, not paths;
/// the project assumes these) answering the v2 item. Items still inside their visibility delay
/// are answered as if they did not exist.
struct SimItemRoutes: Sendable {
    /// What differs between the versions.
    struct Dialect: Sendable {
        var prefix: String
        var render: @Sendable (SimItem, SimIncludes) -> SimJSON
        /// The page size when a search gives no `limit` (at most 25 either way).
        var defaultSearchLimit: Int
        /// Whether the search cursor is one string (v2 documents it so) rather than a pair.
        var cursorAsString: @Sendable (SimulatorBehaviour) -> Bool
        /// Extra members of a search answer.
        var searchExtras: [String: SimJSON]

        static let v1 = Dialect(prefix: "/v1", render: { item, _ in item.json }, defaultSearchLimit: 20, cursorAsString: { $0.searchCursorAsString },
                                searchExtras: ["metadata": .object(["result_mode": .string("results")])])
        /// v2: its item, a limit of 10 by default, and `next_cursor` always one string (null on
        /// the last page) whatever `search_cursor_string` says. `format_options` and other keys
        /// v2 knows are ignored, as unknown keys are.
        static let v2 = Dialect(prefix: "/v2", render: { $0.jsonV2(including: $1) }, defaultSearchLimit: 10, cursorAsString: { _ in true }, searchExtras: [:])
    }

    let store: SimulatorStore
    let dialect: Dialect

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        let store = store, dialect = dialect
        api.get("\(dialect.prefix)/health") { _, _ in
            SimResponse.json(.object(["status": .string("ok")]))
        }
        api.get("\(dialect.prefix)/lookup/authentications/:customer_item_id") { request, context in
            let raw = try context.parameters.require("customer_item_id")
            let found = store.lookupAll(customerItemID: raw.removingPercentEncoding ?? raw)
            guard let latest = found.last else { return SimResponse.error(.notFound, "Not found.") }
            let includes = SimIncludes(request)
            if store.behaviour.lookupAnswersList {
                return SimResponse.json(.object(["items": .array(found.map { dialect.render($0, includes) })]))
            }
            return SimResponse.json(.object(["item": dialect.render(latest, includes)]))
        }
        api.get("\(dialect.prefix)/authentications/:entrupy_id") { request, context in
            guard let item = store.visibleItem(try context.parameters.require("entrupy_id")) else {
                return SimResponse.error(.notFound, "Not found.")
            }
            return SimResponse.json(.object(["item": dialect.render(item, SimIncludes(request))]))
        }
        api.post("\(dialect.prefix)/search/authentications") { request, _ in
            let search = try SimSearch(try await SimResponse.body(request), defaultLimit: dialect.defaultSearchLimit)
            let behaviour = store.behaviour
            let page = search.run(in: store, cursorAsString: dialect.cursorAsString(behaviour),
                                  requireCategory: behaviour.searchRequiresCategory, answerNothing: behaviour.searchAnswersNothing)
            var answer = dialect.searchExtras
            answer["items"] = .array(page.items.map { dialect.render($0, .all) })
            answer["item_count"] = .number(page.items.count)
            answer["total_count"] = page.total.map { SimJSON.number($0) } ?? .null
            answer["next_cursor"] = page.nextCursor
            return SimResponse.json(.object(answer))
        }
    }
}
