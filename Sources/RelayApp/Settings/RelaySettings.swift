public import EntrupyAPI
public import RelayModel
public import RelayRuntime
public import RelayDatabase
public import RelayHTTP
public import RelayNotify
public import RelayWorker

/// Everything the relay reads from its settings (environment, config file, secret files), validated once at start-up so that a
/// mistake fails with one line naming the variable instead of surfacing later. Each module
/// reads its own settings (`DatabaseSettings`, `ReceiverSettings`, ...); this gathers them
/// with the process's own.
public struct RelaySettings: Sendable {
    public var database: DatabaseSettings
    public var receiver: ReceiverSettings
    public var http: HTTPSettings
    public var entrupy: EntrupyAPISettings
    public var worker: WorkerSettings
    public var retention: RetentionSettings
    public var notify: NotifySettings
    /// The `OTEL_*` settings, as swift-otel is given them.
    public var tracing: TracingSettings
    public var logLevel: LogLevelName
    public var logFormat: LogFormat
    /// How long SIGTERM may take: stop accepting and claiming, finish what can finish, exit.
    public var shutdownGraceSeconds: Int
    /// The reader these settings came from: the rules file's `${NAME}` secrets read it too.
    public let reader: SettingsReader

    /// - Parameters:
    ///   - receiving: whether this command receives webhooks (then a secret is required).
    ///   - reconciling: whether it calls the Entrupy API (then the API token is required).
    public init(reader: SettingsReader, receiving: Bool, reconciling: Bool = false) throws {
        self.reader = reader
        worker = try WorkerSettings(reader: reader)
        retention = try RetentionSettings(reader: reader)
        // Each running job may hold a connection, beside the receiver's writers and the reconciles' wakes: a
        // pool smaller than the worker's concurrency makes jobs queue for connections (notify.sh
        // at ENTRUPY_RELAY_WORKER_CONCURRENCY 32 with 16: p50 2.7 s end to end). Claims, lease renewals and
        // outcomes have the worker's bookkeeping pool (WorkerAssembly.bookkeepingConnections more).
        database = try DatabaseSettings(reader: reader, defaultPoolSize: max(16, worker.concurrency + 4))
        receiver = try ReceiverSettings(reader: reader, receiving: receiving)
        entrupy = try EntrupyAPISettings(reader: reader, reconciling: reconciling)
        http = try HTTPSettings(reader: reader)
        notify = try NotifySettings(reader: reader)
        tracing = try TracingSettings(reader: reader)
        logLevel = try reader.parsed(Self.logLevel) { text throws(SettingProblem) in
            guard let level = LogLevelName(rawValue: text.lowercased()) else {
                throw SettingProblem("expected one of \(LogLevelName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return level
        } ?? .info
        // A misspelt format used to mean JSON without a word; now it stops the process, as a bad level does.
        logFormat = try reader.parsed(Self.logFormat) { text throws(SettingProblem) in
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw SettingProblem("expected one of \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return format
        } ?? .json
        shutdownGraceSeconds = try reader.integer(Self.shutdownGrace)
    }
}
