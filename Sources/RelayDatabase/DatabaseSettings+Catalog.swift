public import RelayModel
public import RelayRuntime

/// The settings `DatabaseSettings` reads, as the reference gives them.
extension DatabaseSettings {
    public static let url = TextSetting("database_url", takes: "`postgres://user:password@host:5432/db?sslmode=…&sslrootcert=…`", defaultText: "required",
        secret: true, "the database (also read as `DATABASE_URL`). `sslmode` as libpq has it: `disable`; `allow`, `prefer` (TLS if offered, "
            + "not verified); `require` (TLS, not verified; with `sslrootcert`, as `verify-ca`); `verify-ca` (the CA checked); `verify-full` "
            + "(the CA and the host name checked), the default. `sslrootcert` names the CAs to trust (else the system's)",
        audience: .operator(why: "every installation: where the relay's PostgreSQL is, as whom, and how its certificate is checked"))
    public static let poolSize = IntegerSetting("database_pool_size", default: 16, range: 2...500, defaultText: "`worker_concurrency` + 4, at least 16",
        "connections per process for the receiver and the worker (each running job may hold one); a worker opens 4 more for its bookkeeping")
    public static let poolWarmSize = IntegerSetting("database_pool_warm_size", default: 0, range: 0...500, defaultText: "`database_pool_size`",
        "of those, how many are opened at start, before `/readyz` says ready (at most 5 s); any connection closes after 5 minutes unused")
    public static let apiPoolSize = IntegerSetting("api_database_pool_size", default: 8, range: 1...500,
        "the query API's and console's own connections, so readers can never take the receiver's or the worker's")
    public static let apiStatementTimeout = IntegerSetting("api_statement_timeout_ms", default: 5_000, range: 10...600_000,
        "longest statement of an API or console request; past it 503 \"narrow it or retry later\"")
    public static let migrationsDirectory = TextSetting("migrations_dir", takes: "a path", defaultText: "none: the migrations compiled into the binary",
        "a folder to read the numbered migrations from instead (development only)")

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [
        url.setting, poolSize.setting, poolWarmSize.setting, apiPoolSize.setting, apiStatementTimeout.setting, migrationsDirectory.setting,
    ]
}
