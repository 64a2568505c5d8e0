public import RelayModel
public import RelayRuntime

/// The settings `NotifySettings` reads, as the reference gives them.
extension NotifySettings {
    public static let rulesFile = TextSetting("rules_file", takes: "a path", defaultText: "none (nothing is sent)",
        "the notification rules; read at start-up (a bad file stops the start), reloaded on SIGHUP",
        audience: .operator(why: "to notify anyone at all: without rules nothing is sent"))
    public static let retrySchedule = TextSetting("delivery_retry_schedule", takes: "waits with units (`ms s m h d`), comma-separated",
        default: RetrySchedule.defaultText, "waits between delivery attempts, each jittered ±20 %; when spent the delivery is `dead`")
    public static let targetConcurrency = IntegerSetting("delivery_target_concurrency", default: 4, range: 1...1_000,
        "attempts in flight per callback host (and for the SMTP server) in one process; more wait without spending an attempt")
    public static let smtpURL = TextSetting("smtp_url", takes: "`smtp://user:pass@host:587?tls=starttls`", defaultText: "none (email deliveries wait and retry)",
        secret: true, "the mail server: `tls=starttls` (the default, required when given), `implicit` (port 465, also `smtps://`) or `none` for a local relay; user and password percent-encoded",
        audience: .operator(why: "when a rule sends email"))
    public static let smtpPassword = TextSetting("smtp_password", takes: "text", defaultText: "from `smtp_url`", secret: true,
        "overrides the password of `smtp_url`", audience: .operator(why: "to keep the mail password in a credential file of its own"))
    public static let smtpFrom = TextSetting("smtp_from", takes: "an address", defaultText: "required with `smtp_url`",
        "`relay@example.com` or `Entrupy Relay <relay@example.com>`; its domain ends every Message-ID",
        audience: .operator(why: "with `smtp_url`: the sender your mail server accepts"))
    public static let smtpCAFile = TextSetting("smtp_ca_file", takes: "a path", defaultText: "system roots",
        "extra PEM trust roots for a mail server with a private CA")
    public static let smtpHeloName = TextSetting("smtp_helo_name", takes: "a host name", defaultText: "this host's name", "the name given in EHLO")
    public static let smtpTimeout = IntegerSetting("smtp_timeout_seconds", default: 30, range: 1...600, "the longest wait for any one SMTP reply")
    public static let callbackTimeout = IntegerSetting("callback_timeout_seconds", default: 10, range: 1...300,
        "a whole callback request, connect to last byte")
    public static let allowPrivateCallbacks = BoolSetting("allow_private_callbacks", default: false,
        "allow callback targets that are not global unicast (otherwise a target resolving to a private, loopback or special address is refused)")
    public static let targetFailureThreshold = IntegerSetting("target_failure_threshold", default: 10, range: 1...100_000,
        "a target's breaker opens after this many failed attempts in a row (its deliveries are then held, not attempted)")
    public static let targetFailureRate = DecimalSetting("target_failure_rate", default: 0.5, range: 0.01...1,
        "...or when this share of the attempts in the window failed")
    public static let targetFailureWindow = IntegerSetting("target_failure_window_seconds", default: 300, range: 1...86_400,
        "the failure-rate window, from its first failure")
    public static let targetFailureMinAttempts = IntegerSetting("target_failure_min_attempts", default: 20, range: 1...100_000,
        "the failure rate counts once the window holds this many attempts")
    public static let targetProbe = IntegerSetting("target_probe_seconds", default: 30, range: 1...86_400,
        "an open target is probed (one held delivery tried) this long after opening; each failed probe doubles the wait")
    public static let targetProbeMax = IntegerSetting("target_probe_max_seconds", default: 1_800, range: 1...86_400,
        "the longest wait between probes")
    public static let targetDisableAfter = IntegerSetting("target_disable_after_hours", default: 72, range: 0...87_600,
        "a target failing this long is disabled: its deliveries stay held until `targets enable` (0: never)")
    public static let targetDrainRate = IntegerSetting("target_drain_per_second", default: 10, range: 1...10_000,
        "a recovered or enabled target's held deliveries are released at this rate")
    public static let throttleMaxWait = IntegerSetting("target_throttle_max_wait_seconds", default: 900, range: 1...3_600,
        "a delivery put off by its target's rate_limit sleeps at most this long, then asks again: a changed limit applies within it")

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [
        rulesFile.setting, retrySchedule.setting, targetConcurrency.setting, callbackTimeout.setting, allowPrivateCallbacks.setting,
        smtpURL.setting, smtpPassword.setting, smtpFrom.setting, smtpCAFile.setting, smtpHeloName.setting, smtpTimeout.setting,
        targetFailureThreshold.setting, targetFailureRate.setting, targetFailureWindow.setting, targetFailureMinAttempts.setting,
        targetProbe.setting, targetProbeMax.setting, targetDisableAfter.setting, targetDrainRate.setting, throttleMaxWait.setting,
    ]
}
