import Foundation

/// `postgres://user:password@host:port/database?sslmode=disable|prefer|require`.
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tlsMode: TLSMode

    public init(host: String, port: Int, username: String, password: String?, database: String, tlsMode: TLSMode) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tlsMode = tlsMode
    }

    public init(parsing text: String, name: String = "DATABASE_URL") throws {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw SettingsError.invalid(name: name, reason: "expected postgres://user:password@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw SettingsError.invalid(name: name, reason: "no host given")
        }
        guard let user = components.user, !user.isEmpty else {
            throw SettingsError.invalid(name: name, reason: "no user name given")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw SettingsError.invalid(name: name, reason: "no database name given")
        }
        // Encrypted and verified unless the URL says otherwise: `prefer` would fall back to
        // plaintext without a word when the server (or someone in between) offers no TLS.
        var mode = TLSMode.require
        if let value = components.queryItems?.first(where: { $0.name == "sslmode" })?.value {
            guard let parsed = TLSMode(rawValue: value) else {
                throw SettingsError.invalid(name: name, reason: "sslmode must be disable, prefer or require")
            }
            mode = parsed
        }
        self.init(
            host: host, port: components.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database, tlsMode: mode
        )
    }

    /// Safe to log: the password is never shown.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tlsMode.rawValue)"
    }
}
