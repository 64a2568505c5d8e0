import Foundation
public import RelayCore

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
    /// Mark console cookies `Secure` even when no trusted proxy says the request came over HTTPS
    /// (also implied by an https `PUBLIC_URL`).
    public var consoleSecureCookies: Bool
    /// Where people and systems reach the relay (`PUBLIC_URL`); https makes console cookies
    /// always `Secure` and every answer carry Strict-Transport-Security.
    public var publicURL: String?
    public var publicURLIsHTTPS: Bool { publicURL?.lowercased().hasPrefix("https://") == true }

    public static let defaultTrustedProxies = "127.0.0.1/32,::1/128"

    public init(reader: EnvironmentReader) throws {
        host = reader.string("HOST") ?? "127.0.0.1"
        port = try reader.integer("PORT", default: 8080, range: 0...65_535)
        metricsPort = reader.string("METRICS_PORT") == nil ? nil : try reader.integer("METRICS_PORT", default: 0, range: 0...65_535)
        metricsHost = reader.string("METRICS_HOST") ?? "127.0.0.1"
        idleTimeoutSeconds = try reader.integer("HTTP_IDLE_TIMEOUT_SECONDS", default: 30, range: 1...3_600)
        maxConnections = try reader.integer("HTTP_MAX_CONNECTIONS", default: 1_024, range: 1...1_000_000)
        trustedProxies = try reader.list(reader.string("TRUSTED_PROXIES") ?? Self.defaultTrustedProxies).map { text in
            guard let block = CIDRBlock(text) else {
                throw SettingsError.invalid(name: "TRUSTED_PROXIES", reason: "\"\(text)\" is not an address or CIDR block")
            }
            return block
        }
        apiTokenConcurrency = try reader.integer("API_TOKEN_CONCURRENCY", default: 8, range: 1...10_000)
        authFailureLimit = try reader.integer("AUTH_FAILURE_LIMIT", default: 10, range: 1...100_000)
        authFailureWindowSeconds = try reader.integer("AUTH_FAILURE_WINDOW_SECONDS", default: 300, range: 1...86_400)
        consoleSessionHours = try reader.integer("CONSOLE_SESSION_HOURS", default: 12, range: 1...720)
        exportConcurrency = try reader.integer("EXPORT_CONCURRENCY", default: 4, range: 1...1_000)
        sdkAuthorizePerMinute = try reader.integer("SDK_AUTHORIZE_PER_MINUTE", default: 60, range: 1...100_000)
        consoleImageSources = try Self.imageSources(reader.string("CONSOLE_IMAGE_SOURCES"))
        publicURL = reader.string("PUBLIC_URL")
        if let publicURL {
            guard let url = URL(string: publicURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  url.host?.isEmpty == false else {
                throw SettingsError.invalid(name: "PUBLIC_URL", reason: "expected an http(s) URL such as https://relay.example.com")
            }
        }
        consoleSecureCookies = try reader.bool("CONSOLE_SECURE_COOKIES", default: false)
            || publicURL?.lowercased().hasPrefix("https://") == true
    }

    /// `CONSOLE_IMAGE_SOURCES`: `none`, or https origins (`https://host`, `https://*.host`, with
    /// an optional port), each checked so nothing else can be written into the policy.
    static func imageSources(_ text: String?) throws -> [String] {
        guard let text else { return ConsoleController.defaultImageSources }
        if text.lowercased() == "none" { return [] }
        return try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { source in
            let host = source.hasPrefix("https://") ? source.dropFirst(8) : ""
            let labels = host.split(separator: ":", maxSplits: 1)
            let name = labels.first.map { $0.hasPrefix("*.") ? $0.dropFirst(2) : $0 } ?? ""
            let portOK = labels.count < 2 || (labels[1].allSatisfy(\.isNumber) && labels[1].count <= 5 && !labels[1].isEmpty)
            guard !name.isEmpty, portOK, name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ label in
                !label.isEmpty && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
            }) else {
                throw SettingsError.invalid(name: "CONSOLE_IMAGE_SOURCES",
                                            reason: "expected none or https origins such as https://*.entrupy.com, got \"\(source.prefix(100))\"")
            }
            return source.lowercased()
        }
    }
}
