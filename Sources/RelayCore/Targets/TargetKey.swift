import Foundation

/// What a breaker guards: a callback's origin (scheme, host and port, as
/// `https://partner.example.com`, the default port left out) or `smtp`, the one mail server.
/// Two rules posting to different paths of one origin share its health.
public enum TargetKey {
    public static let smtp = "smtp"

    public static func of(_ delivery: DeliveryRecord) -> String {
        switch delivery.channel {
        case .email: return smtp
        case .webhook:
            let url = if case .webhook(let webhook) = delivery.payload { webhook.url } else { delivery.target }
            return origin(of: url)
        }
    }

    /// A key as an operator types it: a URL becomes its origin (`https://Partner.example/hook`
    /// names `https://partner.example`); anything else is taken as written.
    public static func normalized(_ text: String) -> String {
        text.lowercased() == smtp ? smtp : origin(of: text)
    }

    /// The origin of an absolute URL, lower-cased; the URL masked (`MaskedURL`) when it has none.
    public static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty else {
            return String(MaskedURL.mask(url).prefix(200))
        }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = components.port, port != defaultPort { return "\(scheme)://\(hostText):\(port)" }
        return "\(scheme)://\(hostText)"
    }
}
