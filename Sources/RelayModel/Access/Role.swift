/// What a token may do. `admin` everything; `support` reads everything but raw webhooks,
/// retries deliveries and re-reconciles items; `consumer` (a downstream system or the
/// organisation's app backend) reads items and authorises SDK users.
public enum Role: String, Sendable, CaseIterable, Codable {
    case admin
    case support
    case consumer

    public func allows(_ permission: Permission) -> Bool {
        switch self {
        case .admin: true
        case .support: permission != .readEvents && permission != .authorizeSDKUsers && permission != .erasePeople && permission != .testTargets
        case .consumer: permission == .readItems || permission == .authorizeSDKUsers
        }
    }
}
