/// Stored text made safe to print on a terminal: strings come from webhooks, the Entrupy API
/// and peers' replies, and an escape sequence in one (`\u{1B}]0;...`, a cursor move, a
/// right-to-left override) would run in the operator's terminal. Control characters and
/// bidirectional overrides are shown escaped (`\u{1B}`), never passed through.
public enum TerminalText {
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
