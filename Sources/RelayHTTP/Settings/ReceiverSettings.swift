public import RelayCore

/// How webhooks are received and stored, from the environment.
public struct ReceiverSettings: Sendable {
    public var entrupyWebhookSecrets: [WebhookSecret]
    public var standardWebhookSecrets: [WebhookSecret]
    public var standardWebhookToleranceSeconds: Int
    public var webhookMaxBodyBytes: Int
    /// A webhook's whole body must arrive within this, however it is dripped (answer 408).
    public var webhookBodyTimeoutSeconds: Int
    /// Bodies read at once; over it a webhook is answered 503 with Retry-After.
    public var webhookMaxConcurrentBodies: Int
    /// Of those, bodies one client address (behind `TRUSTED_PROXIES`) may have read at once.
    public var webhookBodiesPerClient: Int
    public var ingestWriters: Int
    public var ingestMaxBatch: Int
    public var storeTimeoutMilliseconds: Int

    /// - Parameter receiving: whether the process receives webhooks (then a secret is required).
    public init(reader: EnvironmentReader, receiving: Bool) throws {
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
        webhookMaxBodyBytes = try reader.integer("WEBHOOK_MAX_BODY_BYTES", default: 1 << 20, range: 1...(64 << 20))
        webhookBodyTimeoutSeconds = try reader.integer("WEBHOOK_BODY_TIMEOUT_SECONDS", default: 10, range: 1...300)
        webhookMaxConcurrentBodies = try reader.integer("WEBHOOK_MAX_CONCURRENT_BODIES", default: 256, range: 1...100_000)
        webhookBodiesPerClient = try reader.integer("WEBHOOK_BODIES_PER_CLIENT", default: 64, range: 1...100_000)
        ingestWriters = try reader.integer("INGEST_WRITERS", default: 2, range: 1...64)
        ingestMaxBatch = try reader.integer("INGEST_MAX_BATCH", default: 128, range: 1...1_000)
        storeTimeoutMilliseconds = try reader.integer("WEBHOOK_STORE_TIMEOUT_MS", default: 5_000, range: 100...120_000)
    }
}
