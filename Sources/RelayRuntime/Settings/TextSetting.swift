/// A text setting (a name, a URL, a list): what it takes is checked where it is read, since
/// each has its own form.
public struct TextSetting: Sendable {
    public let setting: Setting
    public let defaultValue: String?

    /// - Parameter defaultText: how the reference says the default when there is none to give.
    /// - Parameter standardName: the variable's name when a standard fixes it (`OTEL_SERVICE_NAME`).
    public init(_ key: String, takes: String, default value: String? = nil, defaultText: String? = nil, secret: Bool = false, _ summary: String,
                audience: SettingAudience = .tuning, standardName: String? = nil) {
        defaultValue = value
        setting = Setting(key: key, takes: takes, defaultText: defaultText ?? value ?? "none", summary: summary, isSecret: secret,
                          audience: audience, standardName: standardName)
    }
}
