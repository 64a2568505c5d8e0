/// `POST /v1/sdk/authorize`: Entrupy's signed request for the app, and the user's name there.
/// `warning` is present only when Entrupy kept an earlier email or name for the user.
public struct APISDKAuthorization: Encodable, Sendable {
    let signedAuthorizationRequest: String
    let username: String
    let conflict: Bool
    let warning: String?

    enum CodingKeys: String, CodingKey {
        case signedAuthorizationRequest = "signed_authorization_request", username, conflict, warning
    }

    public init(signedAuthorizationRequest: String, username: String, conflict: Bool) {
        self.signedAuthorizationRequest = signedAuthorizationRequest
        self.username = username
        self.conflict = conflict
        warning = conflict
            ? "Entrupy already knows this unique_user_id with another email or name and kept the first ones; the signed request is valid"
            : nil
    }
}
