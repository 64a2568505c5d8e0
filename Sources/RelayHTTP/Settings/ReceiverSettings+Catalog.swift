public import RelayModel
public import RelayRuntime

/// The settings `ReceiverSettings` reads, as the reference gives them.
extension ReceiverSettings {
    public static let entrupySecrets = TextSetting("entrupy_webhook_secrets", takes: "secrets, comma-separated", defaultText: "required for `serve`*", secret: true,
        "Entrupy's webhook subscription secrets, each at least 16 bytes; any one verifies (rotation: add the new one, switch Entrupy, remove the old)",
        audience: .operator(why: "every installation that takes Entrupy's webhooks itself; two while rotating"))
    public static let standardSecrets = TextSetting("standard_webhook_secrets", takes: "`whsec_…` secrets, comma-separated", secret: true,
        "secrets for the Standard Webhooks scheme (a gateway that re-signs), at least 16 bytes decoded; *either this or the above is required",
        audience: .operator(why: "when a gateway re-signs Entrupy's webhooks before they reach the relay"))
    public static let standardTolerance = IntegerSetting("standard_webhook_tolerance_seconds", default: 300, range: 1...86_400,
        "allowed clock skew of `webhook-timestamp`")
    public static let maxBodyBytes = IntegerSetting("webhook_max_body_bytes", default: 1 << 20, range: 1...(64 << 20),
        "larger bodies get 413; a declared `Content-Length` over it is refused before reading")
    public static let bodyTimeout = IntegerSetting("webhook_body_timeout_seconds", default: 10, range: 1...300,
        "a request's whole body must arrive within this, however it is dripped: else 408 and the connection is closed")
    public static let maxConcurrentBodies = IntegerSetting("webhook_max_concurrent_bodies", default: 256, range: 1...100_000,
        "webhook bodies read at once; more get 503 with `Retry-After`")
    public static let bodiesPerClient = IntegerSetting("webhook_bodies_per_client", default: 64, range: 1...100_000,
        "of those, bodies one client address may have being read at once; more get 503 with `Retry-After`")
    public static let ingestWriters = IntegerSetting("ingest_writers", default: 2, range: 1...64, "commit writers of received webhooks")
    public static let ingestMaxBatch = IntegerSetting("ingest_max_batch", default: 128, range: 1...1_000, "the most webhooks one commit carries")
    public static let storeTimeout = IntegerSetting("webhook_store_timeout_ms", default: 5_000, range: 100...120_000,
        "longest wait for a webhook's commit before answering 503")

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [
        entrupySecrets.setting, standardSecrets.setting, standardTolerance.setting, maxBodyBytes.setting, bodyTimeout.setting,
        maxConcurrentBodies.setting, bodiesPerClient.setting, ingestWriters.setting, ingestMaxBatch.setting, storeTimeout.setting,
    ]
}
