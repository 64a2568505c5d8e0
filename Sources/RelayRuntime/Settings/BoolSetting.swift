/// A true-or-false setting with its default.
public struct BoolSetting: Sendable {
    public let setting: Setting
    public let defaultValue: Bool

    public init(_ key: String, default value: Bool, _ summary: String, audience: SettingAudience = .tuning) {
        defaultValue = value
        setting = Setting(key: key, takes: "true or false", defaultText: "\(value)", summary: summary, audience: audience)
    }
}
