/// A true-or-false setting with its default.
public struct BoolSetting: Sendable {
    public let setting: Setting
    public let defaultValue: Bool

    public init(_ key: String, default value: Bool, _ summary: String) {
        defaultValue = value
        setting = Setting(key: key, takes: "true or false", defaultText: "\(value)", summary: summary)
    }
}
