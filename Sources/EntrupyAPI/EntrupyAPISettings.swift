import Foundation
public import RelayCore

/// How the relay reaches Entrupy's API, from the environment.
public struct EntrupyAPISettings: Sendable {
    public var url: String
    public var token: String?
    /// Requests per second for all replicas together (`ENTRUPY_API_RATE`).
    public var rate: Double
    public var timeoutSeconds: Int
    /// How often the API's health and the token are checked (`GET /v1/health`) for `/readyz`.
    public var healthIntervalSeconds: Int

    /// - Parameter reconciling: whether the process calls the API (then the token is required).
    public init(reader: EnvironmentReader, reconciling: Bool) throws {
        url = reader.string("ENTRUPY_API_URL") ?? "https://api.entrupy.com"
        guard let api = URL(string: url), let scheme = api.scheme, ["http", "https"].contains(scheme), api.host != nil else {
            throw SettingsError.invalid(name: "ENTRUPY_API_URL", reason: "expected an http(s) URL such as https://api.entrupy.com")
        }
        token = try reader.secret("ENTRUPY_API_TOKEN")
        if reconciling, token == nil {
            throw SettingsError.missing(name: "ENTRUPY_API_TOKEN", hint: "set the organisation's Entrupy API token (or run serve --no-worker)")
        }
        rate = Double(try reader.integer("ENTRUPY_API_RATE", default: 10, range: 1...10_000))
        timeoutSeconds = try reader.integer("ENTRUPY_API_TIMEOUT_SECONDS", default: 10, range: 1...300)
        healthIntervalSeconds = try reader.integer("ENTRUPY_HEALTH_INTERVAL_SECONDS", default: 30, range: 1...3_600)
    }
}
