/// Where and how to call the Entrupy API. The token is held here and written only into the
/// `Authorization` header; `description` never shows it.
public struct EntrupyAPIConfiguration: Sendable, CustomStringConvertible {
    public var baseURL: String
    public var token: String
    public var apiVersion: String
    public var requestTimeout: Duration
    public var ratePerSecond: Double

    public init(baseURL: String, token: String, apiVersion: String = "1.4", requestTimeout: Duration = .seconds(10), ratePerSecond: Double = 10) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.apiVersion = apiVersion
        self.requestTimeout = requestTimeout
        self.ratePerSecond = ratePerSecond
    }

    public var description: String { "EntrupyAPI(\(baseURL), Api-Version \(apiVersion), \(ratePerSecond)/s, token redacted)" }
}
