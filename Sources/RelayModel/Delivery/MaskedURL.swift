/// A callback URL as people may see it: its scheme and host (with the port) only. Secrets
/// live anywhere else in a URL: the user name and password, the query, the fragment, and the
/// path too (a chat service's incoming-webhook URL is `https://hooks.example.com/services/T0/B0/SECRET`).
/// Deliveries store this as their `target`, and support tells deliveries apart by rule name;
/// the full URL stays only in the payload the sender reads, which no API, console page,
/// command or SQL view shows.
public enum MaskedURL {
    public static func mask(_ url: String) -> String {
        // The authority ends at the first "/", "?" or "#" after "://"; userinfo is what precedes its last "@".
        guard let schemeEnd = url.range(of: "://") else { return "***" }
        let scheme = url[..<schemeEnd.lowerBound]
        guard !scheme.isEmpty, scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "+-.".unicodeScalars.contains($0)
            || ("0"..."9").contains($0)) }) else { return "***" }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let rest = afterScheme[authorityEnd...]
        return scheme.lowercased() + "://" + authority + (rest.isEmpty || rest == "/" ? "" : "/***")
    }
}
