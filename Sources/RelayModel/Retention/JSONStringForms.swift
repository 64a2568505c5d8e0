/// The ways a JSON encoder may write `value` as a string token, quotes included: with only the
/// escapes JSON requires, with `/` escaped too (some encoders do), and with every character
/// beyond ASCII as `\uXXXX` (Python's default). An erasure looks for these bytes in stored
/// webhook bodies, which it cannot parse in SQL (a body may not be valid JSON to PostgreSQL).
public enum JSONStringForms {
    public static func of(_ value: String) -> [String] {
        var forms = [token(value, slash: false, ascii: false)]
        for form in [token(value, slash: true, ascii: false), token(value, slash: false, ascii: true),
                     token(value, slash: true, ascii: true)] where !forms.contains(form) {
            forms.append(form)
        }
        return forms
    }

    static func token(_ value: String, slash: Bool, ascii: Bool) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slash: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || (ascii && scalar.value > 0x7E) {
                    for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
