import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import RelayCore

/// The Entrupy API routes (contract section 2), with the token checked, a per-token rate
/// limit, and injected latency and errors.
struct SimulatorAPIController: Sendable {
    let store: SimulatorStore
    let configuration: SimulatorConfiguration

    func addRoutes(to router: Router<BasicRequestContext>) {
        let api = router.group().add(middleware: SimulatorGate(store: store, token: configuration.apiToken))
        api.get("/v1/lookup/authentications/:customer_item_id") { _, context in
            let id = try context.parameters.require("customer_item_id").removingPercentEncoding ?? ""
            guard let item = store.lookup(customerItemID: id) else { return SimResponse.error(.notFound, "not found") }
            return SimResponse.json(.object(["item": item.json]))
        }
        api.get("/v1/authentications/:entrupy_id") { _, context in
            let id = try context.parameters.require("entrupy_id")
            guard let item = store.item(id) else { return SimResponse.error(.notFound, "not found") }
            return SimResponse.json(.object(["item": item.json]))
        }
        api.post("/v1/search/authentications") { request, _ in
            let body = try await SimResponse.body(request)
            do {
                let page = try SimSearch.run(body, items: store.allItems())
                return SimResponse.json(.object([
                    "metadata": .object(["result_mode": .string("results")]),
                    "items": .array(page.items.map(\.json)),
                    "item_count": .number(JSONNumber(page.items.count)),
                    "total_count": .number(JSONNumber(page.total)),
                    "next_cursor": page.nextCursor,
                ]))
            } catch let failure as SimSearch.Failure {
                return SimResponse.error(.badRequest, failure.message)
            }
        }
        api.post("/v2/integrations/authorize-user") { request, _ in
            let body = try await SimResponse.body(request)
            guard let uid = body["unique_user_id"]?.stringValue, let email = body["email"]?.stringValue,
                  let signRequest = body["sdk_authorization_request"]?.stringValue, !signRequest.isEmpty else {
                return SimResponse.error(.badRequest, "sdk_authorization_request, unique_user_id and email are required")
            }
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+_-")
            guard (8...40).contains(uid.count), uid.allSatisfy(allowed.contains) else {
                return SimResponse.error(.badRequest, "unique_user_id does not match the required format")
            }
            let first = body["first_name"]?.stringValue, last = body["last_name"]?.stringValue
            guard email.utf8.count <= 254, (first?.utf8.count ?? 0) <= 254, (last?.utf8.count ?? 0) <= 254 else {
                return SimResponse.error(.badRequest, "email and names must be at most 254 bytes")
            }
            let (username, conflict) = store.authorize(
                uniqueUserID: uid, user: .init(email: email, firstName: first, lastName: last), organisation: configuration.organisation
            )
            let signed = EntrupySignatureVerifier.sign(body: Array("\(username):\(signRequest)".utf8), secret: .entrupy(configuration.apiToken))
            return SimResponse.json(.object([
                "signed_authorization_request": .string("signed." + signed), "username": .string(username),
            ]), status: conflict ? .conflict : .ok)
        }
    }
}
