import Foundation
import Hummingbird

/// The Entrupy API routes (contract section 2) behind `SimulatorGate`: v1.4's here, v2's beside
/// them in `SimulatorV2Routes` on the same gate. Items still inside their visibility delay are
/// answered as if they did not exist.
struct SimulatorAPIController: Sendable {
    let store: SimulatorStore
    let configuration: SimulatorConfiguration

    static let uniqueUserIDCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+_-")

    func addRoutes(to router: Router<BasicRequestContext>) {
        let api = router.group().add(middleware: SimulatorGate(store: store, token: configuration.apiToken))
        api.get("/v1/health") { _, _ in
            SimResponse.json(.object(["status": .string("ok")]))
        }
        api.get("/v1/lookup/authentications/:customer_item_id") { _, context in
            let raw = try context.parameters.require("customer_item_id")
            let found = store.lookupAll(customerItemID: raw.removingPercentEncoding ?? raw)
            guard let latest = found.last else { return SimResponse.error(.notFound, "Not found.") }
            if store.behaviour.lookupAnswersList { return SimResponse.json(.object(["items": .array(found.map(\.json))])) }
            return SimResponse.json(.object(["item": latest.json]))
        }
        api.get("/v1/authentications/:entrupy_id") { _, context in
            guard let item = store.visibleItem(try context.parameters.require("entrupy_id")) else {
                return SimResponse.error(.notFound, "Not found.")
            }
            return SimResponse.json(.object(["item": item.json]))
        }
        api.post("/v1/search/authentications") { request, _ in
            let search = try SimSearch(try await SimResponse.body(request))
            let behaviour = store.behaviour
            let page = search.run(in: store, cursorAsString: behaviour.searchCursorAsString,
                                  requireCategory: behaviour.searchRequiresCategory, answerNothing: behaviour.searchAnswersNothing)
            return SimResponse.json(.object([
                "metadata": .object(["result_mode": .string("results")]),
                "items": .array(page.items.map(\.json)),
                "item_count": .number(page.items.count),
                "total_count": page.total.map { SimJSON.number($0) } ?? .null,
                "next_cursor": page.nextCursor,
            ]))
        }
        api.post("/v2/integrations/authorize-user") { request, _ in
            try await authorizeUser(SimResponse.fields(request))
        }
        SimulatorV2Routes(store: store).addRoutes(to: api)
    }

    /// 200 with a signed request and the username; 409 (still signed) when the email or given
    /// names differ from the first accepted call for this user.
    private func authorizeUser(_ fields: InputFields) throws -> Response {
        guard let signRequest = try fields.string("sdk_authorization_request", maxLength: 65_536),
              let uid = try fields.string("unique_user_id", maxLength: 1024, allowEmpty: true),
              let email = try fields.string("email", maxLength: 1024) else {
            throw SimInputError("sdk_authorization_request, unique_user_id and email are required")
        }
        guard (8...40).contains(uid.count), uid.allSatisfy(Self.uniqueUserIDCharacters.contains) else {
            throw SimInputError("unique_user_id does not match the required format")
        }
        let first = try fields.string("first_name", maxLength: 1024, allowEmpty: true)
        let last = try fields.string("last_name", maxLength: 1024, allowEmpty: true)
        guard email.utf8.count <= 254, (first?.utf8.count ?? 0) <= 254, (last?.utf8.count ?? 0) <= 254 else {
            throw SimInputError("email and names must be at most 254 bytes")
        }
        let (username, conflict) = store.authorize(
            uniqueUserID: uid, user: .init(email: email, firstName: first, lastName: last)
        )
        let signed = SimSignature.hex(of: Array("\(username):\(signRequest)".utf8), key: configuration.apiToken)
        var answer: [String: SimJSON] = ["signed_authorization_request": .string("signed." + signed), "username": .string(username)]
        if conflict, !store.behaviour.authorizeConflictUsername { answer["username"] = nil }
        return SimResponse.json(.object(answer), status: conflict ? .conflict : .ok)
    }
}
