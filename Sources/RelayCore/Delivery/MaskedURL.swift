/// A callback URL as people may see it: user name and password, query and fragment (where
/// a target's credentials usually live) replaced by `***`. Deliveries store this as their
/// `target`; the full URL stays only in the payload the sender reads, which no API, console
/// page, command or SQL view shows.
public enum MaskedURL {
    public static func mask(_ url: String) -> String {
        var text = Substring(url)
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = "#***"
            text = text[..<hash]
        }
        var query = ""
        if let question = text.firstIndex(of: "?") {
            query = "?***"
            text = text[..<question]
        }
        // The authority ends at the first "/" after "://"; userinfo is what precedes its last "@".
        guard let schemeEnd = text.range(of: "://") else { return String(text) + query + fragment }
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return String(text) + query + fragment }
        return String(text[..<schemeEnd.upperBound]) + "***@" + authority[authority.index(after: at)...]
            + afterScheme[authorityEnd...] + query + fragment
    }
}
