/// The signed request and username; `conflict` when Entrupy answered 409 (the stored email
/// or names differ from this call's, the signed request is still valid). A 409 may come
/// without the username (nil): the one the relay stored for the user stays.
public struct AuthorizeUserResult: Sendable, Equatable {
    public var signedAuthorizationRequest: String
    public var username: String?
    public var conflict: Bool

    public init(signedAuthorizationRequest: String, username: String?, conflict: Bool) {
        self.signedAuthorizationRequest = signedAuthorizationRequest
        self.username = username
        self.conflict = conflict
    }
}
