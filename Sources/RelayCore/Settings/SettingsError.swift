/// A configuration problem, phrased as the one line the operator needs to fix it.
/// Never includes a secret's value.
public enum SettingsError: Error, Equatable, CustomStringConvertible {
    case missing(name: String, hint: String)
    case invalid(name: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let name, let hint): "\(name) is required: \(hint)"
        case .invalid(let name, let reason): "\(name) is invalid: \(reason)"
        }
    }
}
