/// Who submitted an item, from the SDK users mirror (the organisation's own `unique_user_id`
/// for the Entrupy username, with the email and names the relay authorised them with).
public struct Submitter: Sendable, Equatable {
    public var uniqueUserID: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?

    public init(uniqueUserID: String, email: String?, firstName: String?, lastName: String?) {
        self.uniqueUserID = uniqueUserID
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
    }
}
