import Foundation

/// An SDK user the relay authorised: the organisation's own ID and Entrupy's username.
public struct SDKUserRecord: Sendable, Equatable {
    public var uniqueUserID: String
    public var username: String
    /// Nil when Entrupy holds details the relay never saw (its first call here drew a 409).
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    /// Entrupy answered 409 on the latest call (it kept the first call's email and names).
    public var conflict: Bool
    public var authorizations: Int

    public init(uniqueUserID: String, username: String, email: String?, firstName: String?, lastName: String?,
                conflict: Bool, authorizations: Int = 1) {
        self.uniqueUserID = uniqueUserID
        self.username = username
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.conflict = conflict
        self.authorizations = authorizations
    }
}
