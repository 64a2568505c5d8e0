public import RelayModel
public import RelayRuntime

/// The rules file and how notifications are sent, from the environment.
public struct NotifySettings: Sendable {
    public var rulesFile: String?
    public var retrySchedule: RetrySchedule
    /// Attempts under way at once per callback host, and per SMTP server (its kept connections).
    public var targetConcurrency: Int
    public var smtpURL: String?
    public var smtpPassword: String?
    public var smtpFrom: String?
    public var smtpCAFile: String?
    /// The name the relay gives in EHLO; nil: the host's name.
    public var smtpHeloName: String?
    public var smtpTimeoutSeconds: Int
    public var callbackTimeoutSeconds: Int
    public var allowPrivateCallbacks: Bool
    /// Targets' circuit breakers.
    public var breaker: BreakerPolicy
    /// The longest a delivery put off by its target's rate limit sleeps before it asks again.
    public var throttleMaxWait: Duration

    public init(reader: SettingsReader) throws {
        rulesFile = try reader.text(Self.rulesFile)
        retrySchedule = try reader.parsed(Self.retrySchedule) { text throws(SettingProblem) in
            guard let schedule = RetrySchedule(parsing: text), schedule.delays.count <= 100 else {
                throw SettingProblem("expected comma-separated waits with units (ms, s, m, h, d), e.g. \(RetrySchedule.defaultText)")
            }
            return schedule
        } ?? .standard
        targetConcurrency = try reader.integer(Self.targetConcurrency)
        smtpURL = try reader.text(Self.smtpURL)
        smtpPassword = try reader.text(Self.smtpPassword)
        smtpFrom = try reader.text(Self.smtpFrom)
        if smtpURL != nil, smtpFrom == nil {
            throw SettingsError.missing(name: Self.smtpFrom.setting.environmentName, hint: "set the sender address, e.g. relay@example.com, to send email")
        }
        smtpCAFile = try reader.text(Self.smtpCAFile)
        smtpHeloName = try reader.text(Self.smtpHeloName)
        smtpTimeoutSeconds = try reader.integer(Self.smtpTimeout)
        callbackTimeoutSeconds = try reader.integer(Self.callbackTimeout)
        allowPrivateCallbacks = try reader.bool(Self.allowPrivateCallbacks)
        throttleMaxWait = .seconds(try reader.integer(Self.throttleMaxWait))
        let disableAfter = try reader.integer(Self.targetDisableAfter)
        breaker = BreakerPolicy(
            consecutiveFailures: try reader.integer(Self.targetFailureThreshold), failureRate: try reader.decimal(Self.targetFailureRate),
            window: .seconds(try reader.integer(Self.targetFailureWindow)), minimumAttempts: try reader.integer(Self.targetFailureMinAttempts),
            firstProbe: .seconds(try reader.integer(Self.targetProbe)), longestProbeWait: .seconds(try reader.integer(Self.targetProbeMax)),
            disableAfter: disableAfter == 0 ? nil : .seconds(disableAfter * 3_600), drainPerSecond: try reader.integer(Self.targetDrainRate))
    }
}
