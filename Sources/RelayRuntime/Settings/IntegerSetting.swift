/// A whole-number setting with its range and default.
public struct IntegerSetting: Sendable {
    public let setting: Setting
    public let defaultValue: Int
    public let range: ClosedRange<Int>

    /// - Parameter defaultText: for a default that depends on other settings, how the reference says it.
    public init(_ key: String, default value: Int, range: ClosedRange<Int>, defaultText: String? = nil, _ summary: String,
                audience: SettingAudience = .tuning) {
        defaultValue = value
        self.range = range
        setting = Setting(key: key, takes: "\(range.lowerBound)–\(range.upperBound)", defaultText: defaultText ?? "\(value)", summary: summary,
                          audience: audience)
    }
}
