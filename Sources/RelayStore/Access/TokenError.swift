/// Why a token could not be created or revoked.
public enum TokenError: Error, Equatable, CustomStringConvertible {
    case nameTaken(String)
    case invalidName(String)
    case notFound(String)

    public var description: String {
        switch self {
        case .nameTaken(let name): "an active token is already named \"\(name)\"; revoke it or choose another name"
        case .invalidName(let reason): "invalid token name: \(reason)"
        case .notFound(let name): "no active token named \"\(name)\""
        }
    }
}
