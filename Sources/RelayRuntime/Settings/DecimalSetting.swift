/// A decimal setting with its range and default.
public struct DecimalSetting: Sendable {
    public let setting: Setting
    public let defaultValue: Double
    public let range: ClosedRange<Double>

    public init(_ key: String, default value: Double, range: ClosedRange<Double>, _ summary: String, audience: SettingAudience = .tuning) {
        defaultValue = value
        self.range = range
        setting = Setting(key: key, takes: "\(range.lowerBound)–\(range.upperBound)", defaultText: "\(value)", summary: summary, audience: audience)
    }
}
