public import RelayModel
public import RelayRuntime

extension EntrupyAPISettings {
    /// `ENTRUPY_RELAY_ENTRUPY_FLAG_REASONS`: reason ids (letters, digits, `_`, `-`, `.`; at most
    /// 64 each, 50 in all), comma-separated; none when unset.
    static func readFlagReasons(_ reader: SettingsReader) throws -> [String] {
        try reader.parsed(Self.flagReasons) { text throws(SettingProblem) in
            let reasons = reader.list(text)
            guard reasons.count <= 50, reasons.allSatisfy(isReasonID) else {
                throw SettingProblem("expected reason ids such as result_disputed,other (letters, digits, _ - .; at most 64 each)")
            }
            return reasons
        } ?? []
    }

    static func isReasonID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) }
    }
}
