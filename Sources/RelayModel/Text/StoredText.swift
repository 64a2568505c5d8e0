/// Text from outside (a peer's reply, an API item's string) made storable: PostgreSQL's
/// `text` and `jsonb` refuse U+0000, so it becomes U+FFFD; and long text is cut to a bound,
/// on a character boundary. Whatever a peer sent, the record of it can be written.
public enum StoredText {
    public static func clean(_ text: String, maxCharacters: Int = .max) -> String {
        // Scans bytes: on the reconcile path for every string of every item, so no Foundation
        // search and no counting of characters unless the text could be over the limit.
        var result = text.utf8.contains(0) ? text.replacingOccurrences(of: "\0", with: "\u{FFFD}") : text
        if result.utf8.count > maxCharacters, result.count > maxCharacters { result = String(result.prefix(maxCharacters)) }
        return result
    }

    /// Whether `clean` would change the text's U+0000s (limits aside).
    public static func hasNUL(_ text: String?) -> Bool {
        text?.utf8.contains(0) ?? false
    }

    public static func clean(_ text: String?, maxCharacters: Int = .max) -> String? {
        text.map { clean($0, maxCharacters: maxCharacters) }
    }

    /// Bytes from a peer as storable text: invalid UTF-8 becomes U+FFFD, as does U+0000.
    public static func excerpt(_ bytes: some Collection<UInt8>, maxCharacters: Int = .max) -> String {
        clean(String(decoding: bytes, as: UTF8.self), maxCharacters: maxCharacters)
    }
}
