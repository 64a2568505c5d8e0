public import RelayCore

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

    public init(reader: EnvironmentReader) throws {
        rulesFile = reader.string("RULES_FILE")
        let scheduleText = reader.string("DELIVERY_RETRY_SCHEDULE") ?? RetrySchedule.defaultText
        guard let schedule = RetrySchedule(parsing: scheduleText), schedule.delays.count <= 100 else {
            throw SettingsError.invalid(name: "DELIVERY_RETRY_SCHEDULE",
                                        reason: "expected comma-separated waits with units (ms, s, m, h, d), e.g. \(RetrySchedule.defaultText)")
        }
        retrySchedule = schedule
        targetConcurrency = try reader.integer("DELIVERY_TARGET_CONCURRENCY", default: 4, range: 1...1_000)
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
    }
}
