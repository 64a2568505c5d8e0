/// One setting the relay reads: its key in the config file, its name in the environment,
/// what it takes, its default and what it means. The catalog of them (`RelaySettings.catalog`)
/// is what `config reference` prints, what the README's table is, and what a misspelt name is
/// checked against.
public struct Setting: Sendable, Hashable {
    /// Every environment variable the relay reads starts with this, so a misspelt one is caught.
    public static let environmentPrefix = "ENTRUPY_RELAY_"
    /// `DATABASE_URL` is read too, the name every PostgreSQL tool knows (the prefixed one wins).
    public static let aliases = ["database_url": "DATABASE_URL"]

    /// The config file's key, e.g. `port`.
    public let key: String
    /// What it takes, e.g. "0–65535", "true or false".
    public let takes: String
    /// The default, as the reference shows it.
    public let defaultText: String
    /// What it means, in one line.
    public let summary: String
    /// Never printed or logged; may be read from a file named by `…_FILE`.
    public let isSecret: Bool

    public init(key: String, takes: String, defaultText: String, summary: String, isSecret: Bool = false) {
        self.key = key
        self.takes = takes
        self.defaultText = defaultText
        self.summary = summary
        self.isSecret = isSecret
    }

    /// `ENTRUPY_RELAY_PORT` for `port`.
    public var environmentName: String { Self.environmentPrefix + key.uppercased() }
    /// The environment's name for a file holding the value (secrets only).
    public var fileEnvironmentName: String { environmentName + "_FILE" }
}
