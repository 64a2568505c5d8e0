import Foundation
import Hummingbird

/// v2's "Flag an authentication" at the path the relay assumes (`POST /v2/authentications/{id}/flag`,
/// body `reason` required, `comments` nullable), behind the gate like every API route; and
/// `/_sim/flags`, what the desk saw. A flag is refused (409) when the item may not be flagged
/// (`is_flaggable` false, already flagged, or no final result), and (400) for a reason not
/// offered. An accepted flag sends its webhook, and Entrupy's support resolves it a little later.
struct SimFlagRoutes: Sendable {
    let store: SimulatorStore
    let desk: SimFlagDesk
    let sender: WebhookSender

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.post("/v2/authentications/:entrupy_id/flag") { request, context in
            desk.arrived()
            return try await flag(try context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
    }

    func addAdminRoutes(to router: Router<BasicRequestContext>) {
        router.get("/_sim/flags") { _, _ in SimResponse.json(desk.json) }
        router.post("/_sim/flags/reset") { _, _ in
            desk.reset()
            return SimResponse.json(desk.json)
        }
    }

    private func flag(_ id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["reason", "comments"])
        guard let reason = try fields.string("reason", maxLength: 256) else { throw SimInputError("reason is required") }
        let comments = try fields.string("comments", maxLength: 10_000, allowEmpty: true)
        guard let item = store.visibleItem(id) else { return SimResponse.error(.notFound, "Not found.") }
        guard let offered = SimFlagDesk.reasons.first(where: { $0.id == reason }) else {
            return SimResponse.error(.badRequest, "Unsupported flag reason.")
        }
        guard item.isFlaggable, item.flag != "flagged", item.final else {
            return SimResponse.error(.conflict, "This authentication cannot be flagged.")
        }
        let info = FlagInfo(id: offered.id, label: offered.label, message: comments ?? offered.message)
        guard let flagged = store.modify(id, { item, now in item.setFlag("flagged", info: info, isFlaggable: nil, at: now) }) else {
            return SimResponse.error(.notFound, "Not found.")
        }
        desk.schedule(id, now: SimulatorStore.now())
        sender.send(WebhookEvent.sessionCompleted, item: flagged)
        return SimResponse.json(.object(["entrupy_id": .string(id), "flag": .string("flagged")]))
    }
}
