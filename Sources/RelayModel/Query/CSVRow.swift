/// One RFC 4180 line: fields quoted when they hold a comma, a semicolon, a tab, a quote or a
/// line break (quotes doubled), CRLF at the end. Quoting `;` and tabs matters because
/// spreadsheets in many locales split on them: unquoted, `x;=1+1` is read as two cells, the
/// second a formula. A field a spreadsheet would run as a formula (its first character after
/// any leading spaces is `=`, `+`, `-`, `@`, or it starts with a tab, CR or LF) gets a
/// leading `'`, so an exported customer item ID or username can never execute in the support
/// agent's spreadsheet (CSV injection).
public enum CSVRow {
    public static func line(_ fields: [String?]) -> String {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(",") }
            line.append(escape(field ?? ""))
        }
        line.append("\r\n")
        return line
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\n",
                                                     "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]
    static let quoted: Set<Character> = [",", ";", "\t", "\"", "\n", "\r", "\r\n"]

    static func escape(_ raw: String) -> String {
        var text = raw
        // Spreadsheets skip leading spaces (plain or no-break) before reading a formula.
        let first = text.unicodeScalars.first { $0 != " " && $0 != "\u{A0}" }
        if let first, formulaStarts.contains(first) { text = "'" + text }
        guard text.contains(where: { quoted.contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
