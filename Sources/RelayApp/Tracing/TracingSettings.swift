public import RelayModel
public import RelayRuntime

/// The `OTEL_*` settings, read through the relay's own sources (the environment, the YAML file,
/// a secret's `_FILE`), as the environment swift-otel is given: every `OTEL_*` variable of the
/// process, with what the sources found for the catalog's (`TracingSettings.catalog`) over it.
public struct TracingSettings: Sendable {
    /// What swift-otel reads its configuration from.
    public let environment: [String: String]

    public init(reader: SettingsReader) throws {
        var environment = reader.environment.filter { $0.key.hasPrefix("OTEL_") }
        for setting in Self.catalog {
            environment[setting.environmentName + "_FILE"] = nil
            guard let found = try reader.value(setting) else { continue }
            environment[setting.environmentName] = found.text
            // A file's headers are checked here: swift-otel would drop a malformed pair without a word.
            if setting.isSecret, found.origin.lowercased().contains("_file"), CollectorHeaders.parse(found.text) == nil {
                throw SettingsError.invalid(name: found.origin, reason: "the file must hold name=value pairs separated by commas")
            }
        }
        self.environment = environment
    }

    /// Whether the settings ask for traces: an endpoint, and tracing not turned off.
    public var wanted: Bool {
        guard environment["OTEL_SDK_DISABLED"]?.lowercased() != "true", environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none" else {
            return false
        }
        return !(environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? "").isEmpty
    }

    /// The endpoint the traces go to, for the log line that says tracing is on.
    var endpoint: String {
        environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? ""
    }
}
