import EntrupyAPI
public import RelayModel
public import RelayRuntime
import RelayDatabase
import RelayHTTP
import RelayNotify
import RelayWorker

/// The process's own settings, and the catalog of every setting the relay reads: what
/// `config reference` prints, docs/configuration.md's table, and what a misspelt name is checked against.
extension RelaySettings {
    public static let logLevel = TextSetting("log_level", takes: LogLevelName.allCases.map(\.rawValue).joined(separator: ", "), default: "info",
        "the least severe log line written", audience: .operator(why: "`debug` while chasing a problem, `warning` for quiet"))
    public static let logFormat = TextSetting("log_format", takes: LogFormat.allCases.map(\.rawValue).joined(separator: ", "), default: LogFormat.json.rawValue,
        "`json` (one object per line) or `text`", audience: .operator(why: "`text` when people read the log, not a collector"))
    public static let shutdownGrace = IntegerSetting("shutdown_grace_seconds", default: 25, range: 1...3_600,
        "SIGTERM: stop accepting and claiming, finish what can finish within this; then what is left is cancelled")

    /// Every setting, grouped as the reference shows them.
    public static let catalogGroups: [(title: String, settings: [Setting])] = [
        ("Database", DatabaseSettings.catalog),
        ("Receiving webhooks", ReceiverSettings.catalog),
        ("Entrupy's API", EntrupyAPISettings.catalog),
        ("HTTP, the API and the console", HTTPSettings.catalog),
        ("The worker", WorkerSettings.catalog),
        ("Retention", RetentionSettings.catalog),
        ("Notifications", NotifySettings.catalog),
        ("Tracing (OpenTelemetry's standard variables)", TracingSettings.catalog),
        ("The process", [logLevel.setting, logFormat.setting, shutdownGrace.setting]),
    ]

    public static var catalog: [Setting] { catalogGroups.flatMap(\.settings) }
}
