import Foundation
public import RelayCore

/// How the relay reaches Entrupy's API, from the environment.
public struct EntrupyAPISettings: Sendable {
    public var url: String
    public var token: String?
    /// Requests per second for all replicas together (`ENTRUPY_RELAY_ENTRUPY_API_RATE`).
    public var rate: Double
    public var timeoutSeconds: Int
    /// How often the API's health and the token are checked (`GET /v1/health`) for `/readyz`.
    public var healthIntervalSeconds: Int

    /// - Parameter reconciling: whether the process calls the API (then the token is required).
    public init(reader: SettingsReader, reconciling: Bool) throws {
        url = try reader.parsed(Self.url) { text throws(SettingProblem) in
            guard let api = URL(string: text), let scheme = api.scheme, ["http", "https"].contains(scheme), api.host != nil else {
                throw SettingProblem("expected an http(s) URL such as https://api.entrupy.com")
            }
            return text
        } ?? "https://api.entrupy.com"
        token = try reader.text(Self.token)
        if reconciling, token == nil {
            throw SettingsError.missing(name: Self.token.setting.environmentName, hint: "set the organisation's Entrupy API token (or run serve --no-worker)")
        }
        rate = Double(try reader.integer(Self.rate))
        timeoutSeconds = try reader.integer(Self.timeout)
        healthIntervalSeconds = try reader.integer(Self.healthInterval)
    }
}
