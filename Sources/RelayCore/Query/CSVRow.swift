/// One RFC 4180 line: fields quoted when they hold a comma, a quote or a line break (quotes
/// doubled), CRLF at the end. A field a spreadsheet would run as a formula (starting with
/// `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`, so an exported customer item ID or
/// username can never execute in the support agent's spreadsheet (CSV injection).
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

    static func escape(_ raw: String) -> String {
        var text = raw
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
