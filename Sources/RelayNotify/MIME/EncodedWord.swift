import RelayModel

/// Header text for email: control characters (CR and LF above all) become spaces, so no value
/// can end a header and start another; non-ASCII text becomes RFC 2047 encoded words, folded
/// so no header line grows past 78 characters.
public enum EncodedWord {
    /// Collapses every run of control characters and whitespace into one space.
    public static func sanitise(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar == "\u{2028}" || scalar == "\u{2029}" {
                pendingSpace = true
                continue
            }
            if pendingSpace, !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// A header value, starting after `Name: `; `nameLength` is the header name's length plus two.
    public static func headerValue(_ text: String, nameLength: Int) -> String {
        let clean = sanitise(text)
        let plain = clean.unicodeScalars.allSatisfy { $0.isASCII } && !clean.contains("=?")
        if plain && clean.utf8.count + nameLength <= 78 { return clean }
        if plain { return fold(clean, nameLength: nameLength) }
        return encode(clean)
    }

    /// `=?UTF-8?B?...?=` words of at most 45 bytes of text each (never splitting a character),
    /// joined by folding whitespace.
    public static func encode(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text.unicodeScalars {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Base64Bytes.encode(bytes) + "?="
    }

    /// Folds ASCII text at spaces so lines stay short; words longer than a line stay whole.
    static func fold(_ text: String, nameLength: Int) -> String {
        var lines: [String] = []
        var line = ""
        var limit = 78 - nameLength
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > limit {
                lines.append(line)
                line = ""
                limit = 77
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\r\n ")
    }
}
