/// `POST /v1/sdk/authorize`: Entrupy's signed request for the app, and the user's name there.
/// `warning` is present only when Entrupy kept an earlier email or name for the user.
/// `username` is null only after a 409 that named none for a user the relay had not seen.
public struct APISDKAuthorization: Encodable, Sendable {
    let signedAuthorizationRequest: String
    let username: String?
    let conflict: Bool
    let warning: String?

    enum CodingKeys: String, CodingKey {
        case signedAuthorizationRequest = "signed_authorization_request", username, conflict, warning
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(signedAuthorizationRequest, forKey: .signedAuthorizationRequest)
        try container.encode(username, forKey: .username)
        try container.encode(conflict, forKey: .conflict)
        try container.encodeIfPresent(warning, forKey: .warning)
    }

    public init(signedAuthorizationRequest: String, username: String?, conflict: Bool) {
        self.signedAuthorizationRequest = signedAuthorizationRequest
        self.username = username
        self.conflict = conflict
        warning = conflict
            ? "Entrupy already knows this unique_user_id with another email or name and kept the first ones; the signed request is valid"
            : nil
    }
}
