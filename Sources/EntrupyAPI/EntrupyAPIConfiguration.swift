/// Where and how to call the Entrupy API. The token is held here and written only into the
/// `Authorization` header; `description` never shows it. How fast is the client's
/// `RateBudget`'s business, not this.
public struct EntrupyAPIConfiguration: Sendable, CustomStringConvertible {
    public var baseURL: String
    public var token: String
    public var apiVersion: String
    public var requestTimeout: Duration

    public init(baseURL: String, token: String, apiVersion: String = "1.4", requestTimeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.apiVersion = apiVersion
        self.requestTimeout = requestTimeout
    }

    public var description: String { "EntrupyAPI(\(baseURL), Api-Version \(apiVersion), token redacted)" }
}
