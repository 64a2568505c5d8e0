public import RelayModel
public import RelayRuntime

/// How the relay reaches PostgreSQL, from the environment.
public struct DatabaseSettings: Sendable {
    public var url: DatabaseURL
    /// Connections per process for the receiver and the worker.
    public var poolSize: Int
    /// Of those, how many are opened at start, before `readyz` says ready, so the first burst
    /// after a start does not open them all at once.
    public var poolWarmSize: Int
    /// The query API's and console's own connections, apart from the receiver's and the
    /// worker's, so readers cannot starve ingestion.
    public var apiPoolSize: Int
    /// Longest statement an API or console request may run.
    public var apiStatementTimeoutMilliseconds: Int
    /// Where `migrate` reads its SQL files (nil: the ones built in).
    public var migrationsDirectory: String?

    /// - Parameter defaultPoolSize: the pool when `database_pool_size` is unset (the caller
    ///   sizes it to the work the process runs at once).
    public init(reader: SettingsReader, defaultPoolSize: Int = 16) throws {
        guard let found = try reader.value(Self.url.setting) else {
            throw SettingsError.missing(name: Self.url.setting.environmentName, hint: "set it (or DATABASE_URL) to postgres://user:password@host:5432/database")
        }
        url = try DatabaseURL(parsing: found.text, name: found.origin)
        if let file = url.rootCertificateFile, !reader.canRead(file) {
            throw SettingsError.invalid(name: found.origin, reason: "sslrootcert \(file) cannot be read")
        }
        poolSize = try reader.integer(Self.poolSize, default: min(max(2, defaultPoolSize), 500))
        poolWarmSize = try reader.integer(Self.poolWarmSize, default: poolSize, range: 0...poolSize)
        apiPoolSize = try reader.integer(Self.apiPoolSize)
        apiStatementTimeoutMilliseconds = try reader.integer(Self.apiStatementTimeout)
        migrationsDirectory = try reader.text(Self.migrationsDirectory)
    }
}
