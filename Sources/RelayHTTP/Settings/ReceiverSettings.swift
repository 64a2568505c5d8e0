public import RelayModel
public import RelayRuntime

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
    /// Of those, bodies one client address (behind `ENTRUPY_RELAY_TRUSTED_PROXIES`) may have read at once.
    public var webhookBodiesPerClient: Int
    public var ingestWriters: Int
    public var ingestMaxBatch: Int
    public var storeTimeoutMilliseconds: Int

    /// - Parameter receiving: whether the process receives webhooks (then a secret is required).
    public init(reader: SettingsReader, receiving: Bool) throws {
        entrupyWebhookSecrets = try reader.parsed(Self.entrupySecrets) { text throws(SettingProblem) in
            try reader.list(text).map { item throws(SettingProblem) in
                let secret = WebhookSecret.entrupy(item)
                guard secret.keyBytes.count >= WebhookSecret.minimumBytes else {
                    throw SettingProblem("each secret must be at least \(WebhookSecret.minimumBytes) bytes (a short secret can be guessed); one has \(secret.keyBytes.count)")
                }
                return secret
            }
        } ?? []
        standardWebhookSecrets = try reader.parsed(Self.standardSecrets) { text throws(SettingProblem) in
            try reader.list(text).map { item throws(SettingProblem) in
                guard let secret = WebhookSecret.standardWebhooks(item) else { throw SettingProblem("each secret must be whsec_ followed by base64") }
                guard secret.keyBytes.count >= WebhookSecret.minimumBytes else {
                    throw SettingProblem("each secret must decode to at least \(WebhookSecret.minimumBytes) bytes; one decodes to \(secret.keyBytes.count)")
                }
                return secret
            }
        } ?? []
        if receiving, entrupyWebhookSecrets.isEmpty, standardWebhookSecrets.isEmpty {
            throw SettingsError.missing(
                name: Self.entrupySecrets.setting.environmentName,
                hint: "set the webhook subscription secret (comma-separate several to rotate), or \(Self.standardSecrets.setting.environmentName)"
            )
        }
        standardWebhookToleranceSeconds = try reader.integer(Self.standardTolerance)
        webhookMaxBodyBytes = try reader.integer(Self.maxBodyBytes)
        webhookBodyTimeoutSeconds = try reader.integer(Self.bodyTimeout)
        webhookMaxConcurrentBodies = try reader.integer(Self.maxConcurrentBodies)
        webhookBodiesPerClient = try reader.integer(Self.bodiesPerClient)
        ingestWriters = try reader.integer(Self.ingestWriters)
        ingestMaxBatch = try reader.integer(Self.ingestMaxBatch)
        storeTimeoutMilliseconds = try reader.integer(Self.storeTimeout)
    }
}
