/// One setting the relay reads: its key in the config file, its name in the environment,
/// what it takes, its default and what it means. The catalog of them (`RelaySettings.catalog`)
/// is what `config reference` prints, what docs/configuration.md's table is, and what a misspelt name is
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
    /// Whether `config reference` shows it (an operator's) or only `--all` (a tuning knob).
    public let audience: SettingAudience
    /// A variable's name that a standard fixes (`OTEL_EXPORTER_OTLP_ENDPOINT`), read instead of
    /// the prefixed one; nil for the relay's own settings.
    let standardName: String?

    public init(key: String, takes: String, defaultText: String, summary: String, isSecret: Bool = false,
                audience: SettingAudience = .tuning, standardName: String? = nil) {
        self.key = key
        self.takes = takes
        self.defaultText = defaultText
        self.summary = summary
        self.isSecret = isSecret
        self.audience = audience
        self.standardName = standardName
    }

    /// `ENTRUPY_RELAY_PORT` for `port`; a standard's own name as it is (`OTEL_SERVICE_NAME`).
    public var environmentName: String { standardName ?? Self.environmentPrefix + key.uppercased() }
    /// Whether its variable is the relay's own (under the prefix), not a standard's.
    public var isPrefixed: Bool { standardName == nil }
    /// The environment's name for a file holding the value (secrets only).
    public var fileEnvironmentName: String { environmentName + "_FILE" }
}
