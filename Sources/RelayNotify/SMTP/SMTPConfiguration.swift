import Foundation

/// Where and how to send email, from `ENTRUPY_RELAY_SMTP_URL` (`smtp://user:pass@host:587?tls=starttls`)
/// and `ENTRUPY_RELAY_SMTP_FROM`. The password is kept out of `description`.
public struct SMTPConfiguration: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var tls: SMTPTLSMode
    public var username: String?
    public var password: String?
    /// The header From (may be `Name <addr>`); `envelopeFrom` is its bare address.
    public var from: String
    /// The name sent with EHLO.
    public var heloName: String
    /// Extra trust roots (PEM) for servers with a private CA; the system roots otherwise.
    public var caFile: String?
    public var connectTimeout: Duration
    public var commandTimeout: Duration

    public struct Invalid: Error, CustomStringConvertible {
        /// Which setting was wrong: the server URL or the sender address.
        public enum Input: Sendable { case url, from }
        public var input: Input
        public var description: String
    }

    /// - Parameter password: overrides the URL's (`ENTRUPY_RELAY_SMTP_PASSWORD`), before the URL's user is checked for one.
    public init(url: String, from: String, password: String? = nil, heloName: String = "localhost", caFile: String? = nil,
                connectTimeout: Duration = .seconds(10), commandTimeout: Duration = .seconds(30)) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              ["smtp", "smtps"].contains(scheme), let host = components.host, !host.isEmpty else {
            throw Invalid(input: .url, description: "expected smtp://[user:password@]host[:port][?tls=starttls|implicit|none]")
        }
        var mode: SMTPTLSMode = scheme == "smtps" ? .implicit : .starttls
        for item in components.queryItems ?? [] {
            guard item.name == "tls" else { throw Invalid(input: .url, description: "unknown parameter \"\(item.name)\"; only tls is understood") }
            guard let value = item.value.flatMap(SMTPTLSMode.init(rawValue:)) else {
                throw Invalid(input: .url, description: "tls must be starttls, implicit or none")
            }
            mode = value
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.tls = mode
        self.port = components.port ?? (mode == .implicit ? 465 : mode == .starttls ? 587 : 25)
        self.username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        self.password = password ?? components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if username != nil, self.password == nil { throw Invalid(input: .url, description: "a user needs a password (smtp://user:password@host, or ENTRUPY_RELAY_SMTP_PASSWORD)") }
        guard let address = Self.address(in: from) else {
            throw Invalid(input: .from, description: "ENTRUPY_RELAY_SMTP_FROM must be an address like relay@example.com or \"Relay <relay@example.com>\"")
        }
        self.from = from.trimmingCharacters(in: .whitespaces)
        self.envelopeFrom = address
        self.heloName = heloName
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    public let envelopeFrom: String

    /// The domain of the From address, for Message-IDs.
    public var fromDomain: String {
        envelopeFrom.split(separator: "@").last.map(String.init) ?? "localhost"
    }

    /// The bare address in `addr` or `Name <addr>`; nil when there is none or it could break a line.
    static func address(in from: String) -> String? {
        var text = from.trimmingCharacters(in: .whitespaces)
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            text = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !text.contains(where: { $0 == " " || $0 == "<" || $0 == ">" || $0 == "," }) else { return nil }
        return text
    }

    public var description: String {
        "smtp://\(username.map { "\($0):***@" } ?? "")\(host):\(port)?tls=\(tls.rawValue)"
    }
}
