/// What is wrong with a setting's text, thrown by the parser a `SettingsReader.parsed` call is
/// given; the reader adds where the text came from.
public struct SettingProblem: Error, Equatable {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}
