import Mustache
import Synchronization

/// The escaping of a JSON body template: every substituted value is written as the inside of
/// a JSON string (RFC 8259 section 7), so `"text": "{{brand}} is {{result}}"` stays one string
/// whatever the item holds. Quotes and backslashes are escaped, every control character
/// (U+0000 to U+001F, and U+007F) becomes a `\u` escape or its short form, and U+2028 and
/// U+2029, which JSON allows raw but JavaScript once did not, become `\u2028` and `\u2029`.
struct JSONStringContent: MustacheContentType {
    static let name = "ENTRUPY_RELAY_JSON_STRING"
    private static let registered = Mutex(false)

    /// Makes the content type known to swift-mustache, whose `CONTENT_TYPE` pragma looks it
    /// up by name when a template is parsed; once per process.
    static func register() {
        registered.withLock { done in
            guard !done else { return }
            MustacheContentTypes.register(JSONStringContent(), named: name)
            done = true
        }
    }

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
            case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\u{08}": out.append(contentsOf: #"\b"#.unicodeScalars)
            case "\u{0C}": out.append(contentsOf: #"\f"#.unicodeScalars)
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
