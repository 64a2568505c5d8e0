import Foundation

/// Everything the relay reads from its environment, validated once at start-up so that a
/// mistake fails with one line naming the variable instead of surfacing later.
public struct RelaySettings: Sendable {
    public var database: DatabaseURL
    public var databasePoolSize: Int
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
    public var ingestWriters: Int
    public var ingestMaxBatch: Int
    public var storeTimeoutMilliseconds: Int
    public var migrationsDirectory: String?

    public static let defaultTrustedProxies = "127.0.0.1/32,::1/128"

    /// - Parameter receiving: whether this command receives webhooks (then a secret is required).
    public init(reader: EnvironmentReader, receiving: Bool) throws {
        guard let url = try reader.secret("DATABASE_URL") else {
            throw SettingsError.missing(name: "DATABASE_URL", hint: "set it to postgres://user:password@host:5432/database")
        }
        database = try DatabaseURL(parsing: url)
        databasePoolSize = try reader.integer("DATABASE_POOL_SIZE", default: 16, range: 2...500)

        entrupyWebhookSecrets = reader.list(try reader.secret("ENTRUPY_WEBHOOK_SECRETS")).map(WebhookSecret.entrupy)
        standardWebhookSecrets = try reader.list(try reader.secret("STANDARD_WEBHOOK_SECRETS")).map { text in
            guard let secret = WebhookSecret.standardWebhooks(text) else {
                throw SettingsError.invalid(name: "STANDARD_WEBHOOK_SECRETS", reason: "each secret must be whsec_ followed by base64")
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
        ingestWriters = try reader.integer("INGEST_WRITERS", default: 4, range: 1...64)
        ingestMaxBatch = try reader.integer("INGEST_MAX_BATCH", default: 128, range: 1...1_000)
        storeTimeoutMilliseconds = try reader.integer("WEBHOOK_STORE_TIMEOUT_MS", default: 5_000, range: 100...120_000)
        migrationsDirectory = reader.string("MIGRATIONS_DIR")
    }
}
