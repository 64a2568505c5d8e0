import Foundation
public import RelayModel
public import RelayRuntime

/// How the relay reaches Entrupy's API, from the environment.
public struct EntrupyAPISettings: Sendable {
    public var url: String
    public var token: String?
    /// The version spoken and its routes (`ENTRUPY_RELAY_ENTRUPY_API_VERSION` and the path settings).
    public var routes: EntrupyAPIRoutes
    /// Requests per second for all replicas together (`ENTRUPY_RELAY_ENTRUPY_API_RATE`).
    public var rate: Double
    public var timeoutSeconds: Int
    /// How often the API's health and the token are checked (the version's health route) for `/readyz`.
    public var healthIntervalSeconds: Int
    /// The flag reasons offered when Entrupy's item names none (`ENTRUPY_RELAY_ENTRUPY_FLAG_REASONS`); empty: any reason is passed on.
    public var flagReasons: [String] = []

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
        let version = try reader.parsed(Self.version) { text throws(SettingProblem) in
            guard let version = EntrupyAPIRoutes.Version(rawValue: text) else { throw SettingProblem("expected 2 or 1.4") }
            return version
        } ?? .v2
        var routes = EntrupyAPIRoutes.defaults(for: version)
        if let header = try reader.parsed(Self.versionHeader, { text throws(SettingProblem) -> String? in
            guard text.count <= 32, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw SettingProblem("expected a version such as 1.4, or none")
            }
            return text == "none" ? nil : text
        }) {
            routes.versionHeader = header
        }
        func path(_ setting: TextSetting, placeholder: String?) throws -> String? {
            try reader.parsed(setting) { text throws(SettingProblem) in
                if let problem = EntrupyAPIRoutes.problem(path: text, placeholder: placeholder) { throw SettingProblem(problem) }
                return text
            }
        }
        if let item = try path(Self.itemPath, placeholder: "{id}") { routes.item = item }
        if let lookup = try path(Self.lookupPath, placeholder: "{customer_item_id}") { routes.lookup = lookup }
        if let search = try path(Self.searchPath, placeholder: nil) { routes.search = search }
        if let health = try path(Self.healthPath, placeholder: nil) { routes.health = health }
        if let flag = try path(Self.flagPath, placeholder: "{id}") { routes.flag = flag }
        if version == .v2, try reader.bool(Self.includeCatalog) { routes.itemIncludes.append("include_catalog") }
        self.routes = routes
        rate = Double(try reader.integer(Self.rate))
        timeoutSeconds = try reader.integer(Self.timeout)
        healthIntervalSeconds = try reader.integer(Self.healthInterval)
        flagReasons = try Self.readFlagReasons(reader)
    }
}
