/// Whose data an erasure removes: a person by the organisation's own user ID or email (through
/// the SDK users mirror, which links them to an Entrupy username), by the Entrupy username
/// itself (when the mirror has no row for them), or one customer item ID's authentications.
/// Checked like any value from outside before it reaches SQL.
public enum ErasureSelector: Sendable, Equatable {
    case uniqueUserID(String)
    case email(String)
    case username(String)
    case customerItemID(String)

    /// The kind of key, as the erasure record stores it (never the key itself).
    public var kind: String {
        switch self {
        case .uniqueUserID: "unique_user_id"
        case .email: "email"
        case .username: "username"
        case .customerItemID: "customer_item_id"
        }
    }

    public var value: String {
        switch self {
        case .uniqueUserID(let value), .email(let value), .username(let value), .customerItemID(let value): value
        }
    }

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Exactly one key, each within what Entrupy accepts for it; no control characters.
    public static func parse(uniqueUserID: String?, email: String?, username: String? = nil, customerItemID: String?) throws(Invalid) -> ErasureSelector {
        let given = [uniqueUserID.map(ErasureSelector.uniqueUserID), email.map(ErasureSelector.email),
                     username.map(ErasureSelector.username), customerItemID.map(ErasureSelector.customerItemID)].compactMap { $0 }
        guard given.count == 1, let selector = given.first else {
            throw Invalid(description: "give exactly one of unique_user_id, email, username and customer_item_id")
        }
        let value = selector.value
        guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Invalid(description: "\(selector.kind) must be non-empty text without control characters")
        }
        switch selector {
        case .uniqueUserID:
            guard value.unicodeScalars.count <= 40 else { throw Invalid(description: "unique_user_id is at most 40 characters") }
        case .email:
            guard value.utf8.count <= 254, value.contains("@") else { throw Invalid(description: "email is an address of at most 254 bytes") }
        case .username:
            guard value.unicodeScalars.count <= 150 else { throw Invalid(description: "username is at most 150 characters") }
        case .customerItemID:
            guard value.unicodeScalars.count <= 256 else { throw Invalid(description: "customer_item_id is at most 256 characters") }
        }
        return selector
    }
}
