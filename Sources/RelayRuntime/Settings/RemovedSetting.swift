/// A setting the relay read once and reads no more. Set in the environment (or as a key of the
/// config file) it stops start-up saying that it is gone and why, rather than "not a setting"
/// or, worse, being ignored while the operator believes it holds.
public struct RemovedSetting: Sendable, Hashable {
    /// The config file's key it had, e.g. `console_secure_cookies`.
    public let key: String
    /// The release that stopped reading it.
    public let release: String
    /// Why it is gone and what does its work now, in a phrase.
    public let why: String

    public init(key: String, release: String, why: String) {
        self.key = key
        self.release = release
        self.why = why
    }

    /// `ENTRUPY_RELAY_CONSOLE_SECURE_COOKIES` for `console_secure_cookies`.
    public var environmentName: String { Setting.environmentPrefix + key.uppercased() }

    /// Every setting removed, oldest first (the CHANGELOG has a line for each).
    public static let all: [RemovedSetting] = [
        RemovedSetting(key: "console_secure_cookies", release: "0.2.0",
                       why: "console cookies are `Secure` whenever the request came over https (a trusted proxy says so) or `public_url` is https; set ENTRUPY_RELAY_PUBLIC_URL"),
    ]

    /// The removed setting `name` gives: its environment name or its config-file key, either
    /// with the `_FILE` (`_file`) suffix a secret's file takes; nil for any other name.
    public static func named(_ name: String) -> RemovedSetting? {
        let bare = name.uppercased().hasSuffix("_FILE") ? String(name.dropLast(5)) : name
        return all.first { $0.key == bare || $0.environmentName == bare }
    }
}
