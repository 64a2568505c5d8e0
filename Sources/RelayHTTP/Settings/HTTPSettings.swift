import Foundation
public import RelayModel
public import RelayRuntime

/// The HTTP server, the query API and the console, from the environment.
public struct HTTPSettings: Sendable {
    public var host: String
    public var port: Int
    /// When set, `/metrics` is served on this port (on `metricsHost`) instead of the main one,
    /// which faces the internet behind the proxy.
    public var metricsPort: Int?
    public var metricsHost: String
    public var idleTimeoutSeconds: Int
    /// Open HTTP connections per process; over it new ones wait to be accepted.
    public var maxConnections: Int
    public var trustedProxies: [CIDRBlock]
    /// Requests one token may have under way at once.
    public var apiTokenConcurrency: Int
    /// Failed bearer tokens (or console sign-ins) allowed per client address per window.
    public var authFailureLimit: Int
    public var authFailureWindowSeconds: Int
    public var consoleSessionHours: Int
    /// Exports streaming at once in one process, whoever asks.
    public var exportConcurrency: Int
    /// `POST /v1/sdk/authorize` calls one token may make per minute, across every replica.
    public var sdkAuthorizePerMinute: Int
    /// Where the console may load item photos from: CSP sources such as `https://*.entrupy.com`.
    public var consoleImageSources: [String]
    /// Mark console cookies `Secure` even when no trusted proxy says the request came over HTTPS:
    /// an https `ENTRUPY_RELAY_PUBLIC_URL` says so (`console_secure_cookies` said no more, and is gone).
    public var consoleSecureCookies: Bool { publicURLIsHTTPS }
    /// Where people and systems reach the relay (`ENTRUPY_RELAY_PUBLIC_URL`); https makes console cookies
    /// always `Secure` and every answer carry Strict-Transport-Security.
    public var publicURL: String?
    public var publicURLIsHTTPS: Bool { publicURL?.lowercased().hasPrefix("https://") == true }

    public static let defaultTrustedProxies = "127.0.0.1/32,::1/128"

    public init(reader: SettingsReader) throws {
        host = try reader.text(Self.host) ?? "127.0.0.1"
        port = try reader.integer(Self.port)
        metricsPort = try reader.optionalInteger(Self.metricsPort)
        metricsHost = try reader.text(Self.metricsHost) ?? "127.0.0.1"
        idleTimeoutSeconds = try reader.integer(Self.idleTimeout)
        maxConnections = try reader.integer(Self.maxConnections)
        trustedProxies = try reader.parsed(Self.trustedProxies) { text throws(SettingProblem) in
            try reader.list(text).map { item throws(SettingProblem) in
                guard let block = CIDRBlock(item) else { throw SettingProblem("\"\(item.prefix(100))\" is not an address or CIDR block") }
                return block
            }
        } ?? []
        apiTokenConcurrency = try reader.integer(Self.apiTokenConcurrency)
        authFailureLimit = try reader.integer(Self.authFailureLimit)
        authFailureWindowSeconds = try reader.integer(Self.authFailureWindow)
        consoleSessionHours = try reader.integer(Self.consoleSessionHours)
        exportConcurrency = try reader.integer(Self.exportConcurrency)
        sdkAuthorizePerMinute = try reader.integer(Self.sdkAuthorizePerMinute)
        consoleImageSources = try reader.parsed(Self.consoleImageSources, Self.imageSources) ?? []
        publicURL = try reader.parsed(Self.publicURL) { text throws(SettingProblem) in
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  url.host?.isEmpty == false else {
                throw SettingProblem("expected an http(s) URL such as https://relay.example.com")
            }
            return text
        }
    }

    /// `console_image_sources`: `none`, or https origins (`https://host`, `https://*.host`, with
    /// an optional port), each checked so nothing else can be written into the policy. A
    /// loopback `http://127.0.0.1:port` (or `localhost`) is accepted too: a local run's simulator
    /// serves its photos so.
    static func imageSources(_ text: String) throws(SettingProblem) -> [String] {
        if text.lowercased() == "none" { return [] }
        return try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { source throws(SettingProblem) in
            guard imageSourceIsValid(source) else {
                throw SettingProblem("expected none or https origins such as https://*.entrupy.com, got \"\(source.prefix(100))\"")
            }
            return source.lowercased()
        }
    }

    static func imageSourceIsValid(_ source: String) -> Bool {
        let loopback = source.lowercased().hasPrefix("http://127.0.0.1") || source.lowercased().hasPrefix("http://localhost")
        let host = source.hasPrefix("https://") ? source.dropFirst(8) : loopback ? source.dropFirst(7) : ""
        let labels = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = labels.first.map { $0.hasPrefix("*.") && !loopback ? $0.dropFirst(2) : $0 } ?? ""
        let portOK = labels.count < 2 || (labels[1].allSatisfy(\.isNumber) && labels[1].count <= 5 && !labels[1].isEmpty)
        if loopback { return portOK && ["127.0.0.1", "localhost"].contains(name.lowercased()) }
        return !name.isEmpty && portOK && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
    }
}
