public import RelayCore

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

    /// - Parameter defaultPoolSize: the pool when `DATABASE_POOL_SIZE` is unset (the caller
    ///   sizes it to the work the process runs at once).
    public init(reader: EnvironmentReader, defaultPoolSize: Int = 16) throws {
        guard let text = try reader.secret("DATABASE_URL") else {
            throw SettingsError.missing(name: "DATABASE_URL", hint: "set it to postgres://user:password@host:5432/database")
        }
        url = try DatabaseURL(parsing: text)
        if let file = url.rootCertificateFile, !reader.canRead(file) {
            throw SettingsError.invalid(name: "DATABASE_URL", reason: "sslrootcert \(file) cannot be read")
        }
        poolSize = try reader.integer("DATABASE_POOL_SIZE", default: min(max(2, defaultPoolSize), 500), range: 2...500)
        poolWarmSize = try reader.integer("DATABASE_POOL_WARM_SIZE", default: poolSize, range: 0...poolSize)
        apiPoolSize = try reader.integer("API_DATABASE_POOL_SIZE", default: 8, range: 1...500)
        apiStatementTimeoutMilliseconds = try reader.integer("API_STATEMENT_TIMEOUT_MS", default: 5_000, range: 10...600_000)
        migrationsDirectory = reader.string("MIGRATIONS_DIR")
    }
}
