public import Logging
import NIOSSL
public import PostgresNIO
public import RelayModel

/// Builds the PostgreSQL pool from `DATABASE_URL`, and runs a block with a live pool for the
/// one-shot commands (`migrate`, `events list`).
public enum DatabaseClientFactory {
    /// - Parameter statementTimeout: set on every connection of the pool (`statement_timeout`):
    ///   a statement that runs longer is cancelled by the server (SQLSTATE 57014).
    /// - Parameter synchronousCommit: false sets `synchronous_commit = off` on every connection:
    ///   a commit answers before its WAL is flushed, so a crash of PostgreSQL itself (not of the
    ///   relay) can undo the last fraction of a second of this pool's commits. Only for the
    ///   worker's bookkeeping, whose loss means work done again, never data lost (see
    ///   `WorkerAssembly`).
    public static func makeClient(_ url: DatabaseURL, poolSize: Int, statementTimeout: Duration? = nil,
                                  synchronousCommit: Bool = true, logger: Logger) throws -> PostgresClient {
        let tls = tlsConfiguration(url)
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password,
            database: url.database, tls: tls
        )
        configuration.options.maximumConnections = poolSize
        // Never `minimumConnections`: postgres-nio 1.33.2 traps when a connection is asked for
        // while fewer than that many are open, which a database restart under load brings about
        // (PoolResilienceTests). So every connection the pool parks gets an idle timer: a task
        // group of three tasks around a `Task.sleep`, which stays enqueued (holding its task's
        // memory) until its time has passed even once the connection is used again. Idle
        // connections close after a minute, not five: at notify.sh's 200 webhooks a second
        // (five parks each) the timers of five minutes would hold about 230 MiB (the relay grew
        // 44 MiB in a minute without keep-alive, and had four to go). A minute is within
        // the idle limits of common NATs and load balancers (AWS 350 s, Azure 240 s), so no
        // keep-alive query is needed to keep their connections through them: the keep-alive
        // timer, armed at every park too, doubled the tasks and sleeps.
        configuration.options.connectionIdleTimeout = .seconds(60)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.keepAliveBehavior = nil
        var parameters: [(String, String)] = []
        if let statementTimeout { parameters.append(("statement_timeout", "\(max(1, statementTimeout.milliseconds))")) }
        if !synchronousCommit { parameters.append(("synchronous_commit", "off")) }
        configuration.options.additionalStartupParameters = parameters
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// libpq's `sslmode` as postgres-nio's TLS (see `DatabaseURL`). postgres-nio has no
    /// "plaintext first" mode: `allow` tries TLS first, as `prefer` does.
    static func tlsConfiguration(_ url: DatabaseURL) -> PostgresClient.Configuration.TLS {
        switch tlsPolicy(url) {
        case nil: .disable
        case (let configuration, false)?: .prefer(configuration)
        case (let configuration, true)?: .require(configuration)
        }
    }

    /// The same for a single connection (`config check --connect`).
    static func connectionTLS(_ url: DatabaseURL) throws -> PostgresConnection.Configuration.TLS {
        switch tlsPolicy(url) {
        case nil: .disable
        case (let configuration, false)?: .prefer(try NIOSSLContext(configuration: configuration))
        case (let configuration, true)?: .require(try NIOSSLContext(configuration: configuration))
        }
    }

    /// What TLS the mode asks for and whether it is required; nil: none.
    private static func tlsPolicy(_ url: DatabaseURL) -> (TLSConfiguration, required: Bool)? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // DatabaseSettings checked at start that the file can be read.
        if let file = url.rootCertificateFile { configuration.trustRoots = .file(file) }
        switch url.tlsMode {
        case .disable:
            return nil
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return (configuration, false)
        case .require:
            configuration.certificateVerification = .none
            return (configuration, true)
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return (configuration, true)
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return (configuration, true)
        }
    }

    /// Runs `body` while the pool runs, then shuts the pool down.
    public static func withClient<T: Sendable>(
        _ url: DatabaseURL, logger: Logger, _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        // A one-shot command has nothing to say about pool housekeeping below errors.
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .error)
        let client = try makeClient(url, poolSize: 4, logger: quiet)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { await client.run(); return nil }
            defer { group.cancelAll() }
            let result = try await body(client)
            return result
        }
    }
}
