/// A configuration problem, phrased as the one line the operator needs to fix it.
/// Never includes a secret's value.
public enum SettingsError: Error, Equatable, CustomStringConvertible {
    case missing(name: String, hint: String)
    case invalid(name: String, reason: String)
    /// A prefixed variable or a config-file key that is no setting, with the nearest that is.
    case unknown(name: String, nearest: String?)
    /// A setting the relay read once (`RemovedSetting`): gone since `release`, and why.
    case removed(name: String, release: String, why: String)

    public var description: String {
        switch self {
        case .missing(let name, let hint): "\(name) is required: \(hint)"
        case .invalid(let name, let reason): "\(name) is invalid: \(reason)"
        case .unknown(let name, let nearest):
            "\(name) is not a setting" + (nearest.map { "; did you mean \($0)?" } ?? "; `entrupy-relay config reference` lists them")
        case .removed(let name, let release, let why): "\(name) is gone (removed in \(release)): \(why)"
        }
    }
}
