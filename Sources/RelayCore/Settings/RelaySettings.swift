import Foundation

/// Everything the relay reads from its environment, validated once at start-up so that a
/// mistake fails with one line naming the variable instead of surfacing later.
public struct RelaySettings: Sendable {
    public var database: DatabaseURL
    public var databasePoolSize: Int
    /// The query API's and console's own connections, apart from the receiver's and the
    /// worker's, so readers cannot starve ingestion.
    public var apiDatabasePoolSize: Int
    /// Longest statement an API or console request may run.
    public var apiStatementTimeoutMilliseconds: Int
    /// Requests one token may have under way at once.
    public var apiTokenConcurrency: Int
    public var entrupyWebhookSecrets: [WebhookSecret]
    public var standardWebhookSecrets: [WebhookSecret]
    public var standardWebhookToleranceSeconds: Int
    public var entrupyAPIURL: String
    public var entrupyAPIToken: String?
    public var webhookMaxBodyBytes: Int
    public var trustedProxies: [CIDRBlock]
    public var logLevel: LogLevelName
    public var host: String
    public var port: Int
    /// When set, `/metrics` is served on this port (on `metricsHost`) instead of the main one,
    /// which faces the internet behind the proxy.
    public var metricsPort: Int?
    public var metricsHost: String
    public var ingestWriters: Int
    public var ingestMaxBatch: Int
    public var storeTimeoutMilliseconds: Int
    public var migrationsDirectory: String?
    public var entrupyAPIRate: Double
    public var entrupyAPITimeoutSeconds: Int
    public var workerConcurrency: Int
    public var jobLeaseSeconds: Int
    public var jobPollMilliseconds: Int
    public var jobBackoffBaseMilliseconds: Int
    public var reconcileMaxAttempts: Int
    /// How long after a webhook an item the API does not know yet is still asked for.
    public var notFoundWindowSeconds: Int
    /// Runs whose worker died before a job is dead instead of handed to the next worker.
    public var jobMaxCrashes: Int
    /// Longest run of one job before it counts as failed and is retried.
    public var jobTimeoutSeconds: Int
    public var sweepIntervalSeconds: Int
    /// Re-verification by search: how often a pass runs (0: never), how far back it looks, and
    /// the share of `entrupyAPIRate` it may spend.
    public var syncIntervalSeconds: Int
    public var syncLookbackDays: Int
    public var syncBudgetShare: Double
    /// How often the Entrupy API's health and the token are checked (`GET /v1/health`) for `/readyz`.
    public var entrupyHealthIntervalSeconds: Int
    public var sweepAgeSeconds: Int
    public var pruneCompletedHours: Int
    public var pruneDeadDays: Int
    public var httpIdleTimeoutSeconds: Int
    /// A webhook's whole body must arrive within this, however it is dripped (answer 408).
    public var webhookBodyTimeoutSeconds: Int
    /// Bodies read at once; over it a webhook is answered 503 with Retry-After.
    public var webhookMaxConcurrentBodies: Int
    /// Open HTTP connections per process; over it new ones wait to be accepted.
    public var httpMaxConnections: Int
    /// How long SIGTERM may take: stop accepting and claiming, finish what can finish, exit.
    public var shutdownGraceSeconds: Int
    public var rulesFile: String?
    public var deliveryRetrySchedule: RetrySchedule
    public var deliveryTargetConcurrency: Int
    public var smtpURL: String?
    public var smtpPassword: String?
    public var smtpFrom: String?
    public var smtpCAFile: String?
    /// The name the relay gives in EHLO; nil: the host's name.
    public var smtpHeloName: String?
    public var smtpTimeoutSeconds: Int
    public var callbackTimeoutSeconds: Int
    public var allowPrivateCallbacks: Bool
    /// Failed bearer tokens (or console sign-ins) allowed per client address per window.
    public var authFailureLimit: Int
    public var authFailureWindowSeconds: Int
    public var consoleSessionHours: Int
    /// Mark console cookies `Secure` even when no trusted proxy says the request came over HTTPS
    /// (also implied by an https `PUBLIC_URL`).
    public var consoleSecureCookies: Bool
    /// Where people and systems reach the relay (`PUBLIC_URL`); https makes console cookies
    /// always `Secure` and every answer carry Strict-Transport-Security.
    public var publicURL: String?
    public var publicURLIsHTTPS: Bool { publicURL?.lowercased().hasPrefix("https://") == true }
    /// The environment these settings came from: the rules file's `${NAME}` secrets read it too.
    public let environment: EnvironmentReader

    public static let defaultTrustedProxies = "127.0.0.1/32,::1/128"

    /// - Parameters:
    ///   - receiving: whether this command receives webhooks (then a secret is required).
    ///   - reconciling: whether it calls the Entrupy API (then the API token is required).
    public init(reader: EnvironmentReader, receiving: Bool, reconciling: Bool = false) throws {
        environment = reader
        guard let url = try reader.secret("DATABASE_URL") else {
            throw SettingsError.missing(name: "DATABASE_URL", hint: "set it to postgres://user:password@host:5432/database")
        }
        database = try DatabaseURL(parsing: url)
        // Each running job may hold a connection, beside the receiver's writers, the claims and
        // the finishing batches: a pool smaller than the worker's concurrency makes jobs queue
        // for connections (notify.sh at WORKER_CONCURRENCY 32 with 16: p50 2.7 s end to end).
        let concurrency = try reader.integer("WORKER_CONCURRENCY", default: 16, range: 1...1_000)
        databasePoolSize = try reader.integer("DATABASE_POOL_SIZE", default: max(16, concurrency + 8), range: 2...500)
        apiDatabasePoolSize = try reader.integer("API_DATABASE_POOL_SIZE", default: 8, range: 1...500)
        apiStatementTimeoutMilliseconds = try reader.integer("API_STATEMENT_TIMEOUT_MS", default: 5_000, range: 10...600_000)
        apiTokenConcurrency = try reader.integer("API_TOKEN_CONCURRENCY", default: 8, range: 1...10_000)

        entrupyWebhookSecrets = try reader.list(try reader.secret("ENTRUPY_WEBHOOK_SECRETS")).map { text in
            let secret = WebhookSecret.entrupy(text)
            guard secret.keyBytes.count >= WebhookSecret.minimumBytes else {
                throw SettingsError.invalid(name: "ENTRUPY_WEBHOOK_SECRETS", reason:
                    "each secret must be at least \(WebhookSecret.minimumBytes) bytes (a short secret can be guessed); one has \(secret.keyBytes.count)")
            }
            return secret
        }
        standardWebhookSecrets = try reader.list(try reader.secret("STANDARD_WEBHOOK_SECRETS")).map { text in
            guard let secret = WebhookSecret.standardWebhooks(text) else {
                throw SettingsError.invalid(name: "STANDARD_WEBHOOK_SECRETS", reason: "each secret must be whsec_ followed by base64")
            }
            guard secret.keyBytes.count >= WebhookSecret.minimumBytes else {
                throw SettingsError.invalid(name: "STANDARD_WEBHOOK_SECRETS", reason:
                    "each secret must decode to at least \(WebhookSecret.minimumBytes) bytes; one decodes to \(secret.keyBytes.count)")
            }
            return secret
        }
        if receiving, entrupyWebhookSecrets.isEmpty, standardWebhookSecrets.isEmpty {
            throw SettingsError.missing(
                name: "ENTRUPY_WEBHOOK_SECRETS",
                hint: "set the webhook subscription secret (comma-separate several to rotate), or STANDARD_WEBHOOK_SECRETS"
            )
        }
        standardWebhookToleranceSeconds = try reader.integer("STANDARD_WEBHOOK_TOLERANCE_SECONDS", default: 300, range: 1...86_400)

        entrupyAPIURL = reader.string("ENTRUPY_API_URL") ?? "https://api.entrupy.com"
        guard let api = URL(string: entrupyAPIURL), let scheme = api.scheme, ["http", "https"].contains(scheme), api.host != nil else {
            throw SettingsError.invalid(name: "ENTRUPY_API_URL", reason: "expected an http(s) URL such as https://api.entrupy.com")
        }
        entrupyAPIToken = try reader.secret("ENTRUPY_API_TOKEN")
        if reconciling, entrupyAPIToken == nil {
            throw SettingsError.missing(name: "ENTRUPY_API_TOKEN", hint: "set the organisation's Entrupy API token (or run serve --no-worker)")
        }
        entrupyAPIRate = Double(try reader.integer("ENTRUPY_API_RATE", default: 10, range: 1...10_000))
        entrupyAPITimeoutSeconds = try reader.integer("ENTRUPY_API_TIMEOUT_SECONDS", default: 10, range: 1...300)

        webhookMaxBodyBytes = try reader.integer("WEBHOOK_MAX_BODY_BYTES", default: 1 << 20, range: 1...(64 << 20))
        trustedProxies = try reader.list(reader.string("TRUSTED_PROXIES") ?? Self.defaultTrustedProxies).map { text in
            guard let block = CIDRBlock(text) else {
                throw SettingsError.invalid(name: "TRUSTED_PROXIES", reason: "\"\(text)\" is not an address or CIDR block")
            }
            return block
        }
        let level = reader.string("LOG_LEVEL")?.lowercased() ?? "info"
        guard let parsedLevel = LogLevelName(rawValue: level) else {
            throw SettingsError.invalid(name: "LOG_LEVEL", reason: "expected one of \(LogLevelName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        logLevel = parsedLevel
        host = reader.string("HOST") ?? "127.0.0.1"
        port = try reader.integer("PORT", default: 8080, range: 0...65_535)
        metricsPort = reader.string("METRICS_PORT") == nil ? nil : try reader.integer("METRICS_PORT", default: 0, range: 0...65_535)
        metricsHost = reader.string("METRICS_HOST") ?? "127.0.0.1"
        ingestWriters = try reader.integer("INGEST_WRITERS", default: 2, range: 1...64)
        ingestMaxBatch = try reader.integer("INGEST_MAX_BATCH", default: 128, range: 1...1_000)
        storeTimeoutMilliseconds = try reader.integer("WEBHOOK_STORE_TIMEOUT_MS", default: 5_000, range: 100...120_000)
        migrationsDirectory = reader.string("MIGRATIONS_DIR")
        workerConcurrency = concurrency
        jobLeaseSeconds = try reader.integer("JOB_LEASE_SECONDS", default: 30, range: 1...3_600)
        jobPollMilliseconds = try reader.integer("JOB_POLL_MS", default: 1_000, range: 10...60_000)
        jobBackoffBaseMilliseconds = try reader.integer("JOB_BACKOFF_BASE_MS", default: 1_000, range: 1...3_600_000)
        reconcileMaxAttempts = try reader.integer("RECONCILE_MAX_ATTEMPTS", default: 25, range: 1...1_000)
        notFoundWindowSeconds = try reader.integer("NOT_FOUND_WINDOW_SECONDS", default: 1800, range: 0...604_800)
        jobMaxCrashes = try reader.integer("JOB_MAX_CRASHES", default: 3, range: 1...100)
        jobTimeoutSeconds = try reader.integer("JOB_TIMEOUT_SECONDS", default: 120, range: 1...86_400)
        sweepIntervalSeconds = try reader.integer("SWEEP_INTERVAL_SECONDS", default: 60, range: 1...86_400)
        sweepAgeSeconds = try reader.integer("SWEEP_AGE_SECONDS", default: 300, range: 0...2_592_000)
        syncIntervalSeconds = try reader.integer("SYNC_INTERVAL_SECONDS", default: 900, range: 0...604_800)
        syncLookbackDays = try reader.integer("SYNC_LOOKBACK_DAYS", default: 90, range: 1...3_650)
        syncBudgetShare = try reader.decimal("SYNC_BUDGET_SHARE", default: 0.3, range: 0.01...1)
        entrupyHealthIntervalSeconds = try reader.integer("ENTRUPY_HEALTH_INTERVAL_SECONDS", default: 30, range: 1...3_600)
        pruneCompletedHours = try reader.integer("JOBS_PRUNE_COMPLETED_HOURS", default: 24, range: 1...87_600)
        pruneDeadDays = try reader.integer("JOBS_PRUNE_DEAD_DAYS", default: 30, range: 1...3_650)
        httpIdleTimeoutSeconds = try reader.integer("HTTP_IDLE_TIMEOUT_SECONDS", default: 30, range: 1...3_600)
        webhookBodyTimeoutSeconds = try reader.integer("WEBHOOK_BODY_TIMEOUT_SECONDS", default: 10, range: 1...300)
        webhookMaxConcurrentBodies = try reader.integer("WEBHOOK_MAX_CONCURRENT_BODIES", default: 256, range: 1...100_000)
        httpMaxConnections = try reader.integer("HTTP_MAX_CONNECTIONS", default: 1_024, range: 1...1_000_000)
        shutdownGraceSeconds = try reader.integer("SHUTDOWN_GRACE_SECONDS", default: 25, range: 1...3_600)

        rulesFile = reader.string("RULES_FILE")
        let scheduleText = reader.string("DELIVERY_RETRY_SCHEDULE") ?? RetrySchedule.defaultText
        guard let schedule = RetrySchedule(parsing: scheduleText), schedule.delays.count <= 100 else {
            throw SettingsError.invalid(name: "DELIVERY_RETRY_SCHEDULE",
                                        reason: "expected comma-separated waits with units (ms, s, m, h, d), e.g. \(RetrySchedule.defaultText)")
        }
        deliveryRetrySchedule = schedule
        deliveryTargetConcurrency = try reader.integer("DELIVERY_TARGET_CONCURRENCY", default: 4, range: 1...1_000)
        smtpURL = try reader.secret("SMTP_URL")
        smtpPassword = try reader.secret("SMTP_PASSWORD")
        smtpFrom = reader.string("SMTP_FROM")
        if smtpURL != nil, smtpFrom == nil {
            throw SettingsError.missing(name: "SMTP_FROM", hint: "set the sender address, e.g. relay@example.com, to send email")
        }
        smtpCAFile = reader.string("SMTP_CA_FILE")
        smtpHeloName = reader.string("SMTP_HELO_NAME")
        smtpTimeoutSeconds = try reader.integer("SMTP_TIMEOUT_SECONDS", default: 30, range: 1...600)
        callbackTimeoutSeconds = try reader.integer("CALLBACK_TIMEOUT_SECONDS", default: 10, range: 1...300)
        allowPrivateCallbacks = try reader.bool("ALLOW_PRIVATE_CALLBACKS", default: false)
        authFailureLimit = try reader.integer("AUTH_FAILURE_LIMIT", default: 10, range: 1...100_000)
        authFailureWindowSeconds = try reader.integer("AUTH_FAILURE_WINDOW_SECONDS", default: 300, range: 1...86_400)
        consoleSessionHours = try reader.integer("CONSOLE_SESSION_HOURS", default: 12, range: 1...720)
        publicURL = reader.string("PUBLIC_URL")
        if let publicURL {
            guard let url = URL(string: publicURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  url.host?.isEmpty == false else {
                throw SettingsError.invalid(name: "PUBLIC_URL", reason: "expected an http(s) URL such as https://relay.example.com")
            }
        }
        consoleSecureCookies = try reader.bool("CONSOLE_SECURE_COOKIES", default: false)
            || publicURL?.lowercased().hasPrefix("https://") == true
    }
}
