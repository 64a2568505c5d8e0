/// Where and how to call the Entrupy API. The token is held here and written only into the
/// `Authorization` header; `description` never shows it. How fast is the client's
/// `RateBudget`'s business, not this.
public struct EntrupyAPIConfiguration: Sendable, CustomStringConvertible {
    public var baseURL: String
    public var token: String
    /// The version spoken and its routes.
    public var routes: EntrupyAPIRoutes
    public var requestTimeout: Duration

    public init(baseURL: String, token: String, routes: EntrupyAPIRoutes = .v2, requestTimeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.routes = routes
        self.requestTimeout = requestTimeout
    }

    public var description: String {
        "EntrupyAPI(\(baseURL), v\(routes.version.rawValue), Api-Version \(routes.versionHeader ?? "none"), token redacted)"
    }
}
