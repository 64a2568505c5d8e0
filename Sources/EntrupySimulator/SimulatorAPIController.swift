import Foundation
import Hummingbird

/// The Entrupy API routes (contract section 2) behind `SimulatorGate`: each version's item
/// routes (`SimItemRoutes`) and authorize-user.
struct SimulatorAPIController: Sendable {
    let store: SimulatorStore
    let configuration: SimulatorConfiguration
    /// The flag route (nil: not served).
    var flags: SimFlagRoutes?

    static let uniqueUserIDCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+_-")

    func addRoutes(to router: Router<BasicRequestContext>) {
        let api = router.group().add(middleware: SimulatorGate(store: store, token: configuration.apiToken))
        api.post("/v2/integrations/authorize-user") { request, _ in
            try await authorizeUser(SimResponse.fields(request))
        }
        SimItemRoutes(store: store, dialect: .v1).addRoutes(to: api)
        SimItemRoutes(store: store, dialect: .v2).addRoutes(to: api)
        flags?.addRoutes(to: api)
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
