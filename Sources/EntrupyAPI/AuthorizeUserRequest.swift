/// `POST /v2/integrations/authorize-user`: the SDK user to sign a request for.
public struct AuthorizeUserRequest: Sendable, Equatable, Codable {
    public var sdkAuthorizationRequest: String
    public var uniqueUserID: String
    public var email: String
    public var firstName: String?
    public var lastName: String?

    enum CodingKeys: String, CodingKey {
        case sdkAuthorizationRequest = "sdk_authorization_request"
        case uniqueUserID = "unique_user_id"
        case email
        case firstName = "first_name"
        case lastName = "last_name"
    }

    public init(sdkAuthorizationRequest: String, uniqueUserID: String, email: String, firstName: String? = nil, lastName: String? = nil) {
        self.sdkAuthorizationRequest = sdkAuthorizationRequest
        self.uniqueUserID = uniqueUserID
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
    }

    /// The contract's rules, checked before anything is sent; the message names the field.
    public func validationError() -> (field: String, message: String)? {
        if sdkAuthorizationRequest.isEmpty { return ("sdk_authorization_request", "is required") }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+_-")
        if !(8...40).contains(uniqueUserID.count) || !uniqueUserID.allSatisfy(allowed.contains) {
            return ("unique_user_id", "must be 8 to 40 characters of A-Z a-z 0-9 @ . + _ -")
        }
        // Entrupy asks for no more than this of an email: its own check decides the rest (400).
        if email.isEmpty { return ("email", "is required") }
        if email.utf8.count > 254 { return ("email", "must be at most 254 bytes of UTF-8") }
        if let firstName, firstName.utf8.count > 254 { return ("first_name", "must be at most 254 bytes of UTF-8") }
        if let lastName, lastName.utf8.count > 254 { return ("last_name", "must be at most 254 bytes of UTF-8") }
        return nil
    }
}
