import Crypto
import Foundation

/// What a breaker guards: a callback's endpoint (scheme, host, port and path) or `smtp`, the
/// one mail server. A path is never shown (a chat service's incoming-webhook path is its
/// secret, `MaskedURL`): the key is the origin (lower-cased, the default port left out), then
/// `/***#` and the first 16 hex digits of the SHA-256 of the path as written, as in
/// `https://hooks.example.com/***#3f1a9c0d5e7b2a46`. An endpoint at the root (no path, or `/`)
/// is its origin alone, as every key was before migration 0033, which moved the older keys.
/// Two rules posting to one endpoint share its health (the query is not part of it); two
/// paths on one host do not.
public enum TargetKey {
    public static let smtp = "smtp"
    /// Between the origin and the path's fingerprint.
    static let pathMarker = "/***#"
    static let fingerprintLength = 16

    public static func of(_ delivery: DeliveryRecord) -> String {
        keys(of: delivery).breaker
    }

    /// The delivery's breaker key (`of`) and the key its sends are limited by: callbacks per
    /// host, email per SMTP server (there is one). A callback's URL is parsed once for both.
    public static func keys(of delivery: DeliveryRecord) -> (breaker: String, limit: String) {
        switch delivery.channel {
        case .email: return (smtp, "smtp")
        case .webhook:
            let url = if case .webhook(let webhook) = delivery.payload { webhook.url } else { delivery.target }
            let (endpoint, host) = endpointAndHost(of: url)
            return (endpoint, "http:" + (host ?? url))
        }
    }

    /// A key as an operator types it: `smtp`; a key as listed (`https://partner.example/***#…`);
    /// or a callback URL, which names its endpoint (`https://Partner.example/hook?x=1` names
    /// `https://partner.example/***#…`, `https://partner.example` its root). Anything else is masked.
    public static func normalized(_ text: String) -> String {
        if text.lowercased() == smtp { return smtp }
        if let marker = text.range(of: pathMarker, options: .backwards) {
            let fingerprint = text[marker.upperBound...].lowercased()
            if fingerprint.count == fingerprintLength, fingerprint.allSatisfy(\.isHexDigit) {
                return origin(of: String(text[..<marker.lowerBound])) + pathMarker + fingerprint
            }
        }
        return endpoint(of: text)
    }

    /// The host's key (the origin) of an endpoint's key; `smtp` and an origin are their own.
    public static func host(ofKey key: String) -> String {
        guard let marker = key.range(of: pathMarker, options: .backwards) else { return key }
        return String(key[..<marker.lowerBound])
    }

    /// The endpoint's key of an absolute URL; the URL masked (`MaskedURL`) when it has no origin.
    public static func endpoint(of url: String) -> String {
        endpoint(of: url, components: URLComponents(string: url))
    }

    /// `endpoint(of:)` and the URL's host, lower-cased (nil when it has none), from one parse:
    /// the deliver handler limits sends per host and guards them per endpoint.
    public static func endpointAndHost(of url: String) -> (endpoint: String, host: String?) {
        let components = URLComponents(string: url)
        return (endpoint(of: url, components: components), components?.host?.lowercased())
    }

    static func endpoint(of url: String, components: URLComponents?) -> String {
        guard let components, let origin = origin(components: components) else { return masked(url) }
        let path = rawPath(of: url)
        guard !path.isEmpty, path != "/" else { return origin }
        return origin + pathMarker + fingerprint(of: path)
    }

    /// The first 16 hex digits of the SHA-256 of `path`'s UTF-8.
    static func fingerprint(of path: Substring) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in SHA256.hash(data: Array(path.utf8)).prefix(fingerprintLength / 2) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }

    /// The path as written: from the `/` after the authority up to `?` or `#`; empty when there
    /// is none. Migration 0033 reads it the same way in SQL: `^[^:/?#]*://[^/?#]*(/[^?#]*)`.
    static func rawPath(of url: String) -> Substring {
        guard let schemeEnd = url.range(of: "://") else { return "" }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let start = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }), afterScheme[start] == "/" else { return "" }
        let rest = afterScheme[start...]
        return rest[..<(rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex)]
    }

    /// The origin of an absolute URL, lower-cased; the URL masked (`MaskedURL`) when it has none.
    public static func origin(of url: String) -> String {
        URLComponents(string: url).flatMap { origin(components: $0) } ?? masked(url)
    }

    static func origin(components: URLComponents) -> String? {
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = components.port, port != defaultPort { return "\(scheme)://\(hostText):\(port)" }
        return "\(scheme)://\(hostText)"
    }

    static func masked(_ url: String) -> String {
        String(MaskedURL.mask(url).prefix(200))
    }
}
