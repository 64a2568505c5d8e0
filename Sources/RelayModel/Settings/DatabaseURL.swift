import Foundation

/// `postgres://user:password@host:port/database?sslmode=…&sslrootcert=/path/ca.crt`, with
/// libpq's `sslmode` values and meanings, so a PostgreSQL operator's habits hold:
/// - `disable`: no TLS;
/// - `allow`, `prefer`: TLS when the server offers it, else plaintext, the certificate not checked;
/// - `require`: TLS, the certificate not checked (with `sslrootcert`, as `verify-ca`, as libpq does);
/// - `verify-ca`: TLS, the certificate signed by a trusted CA (`sslrootcert`, else the system's);
/// - `verify-full`: and issued for the host named in the URL.
/// Absent, it is `verify-full` (libpq's `prefer` would fall back to plaintext without a word).
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tlsMode: TLSMode
    /// `sslrootcert`: a PEM file of the CA certificates to trust (`system`, or none: the system's).
    public var rootCertificateFile: String?

    public init(host: String, port: Int, username: String, password: String?, database: String, tlsMode: TLSMode,
                rootCertificateFile: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tlsMode = tlsMode
        self.rootCertificateFile = rootCertificateFile
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
        var mode = TLSMode.verifyFull
        let query = components.queryItems ?? []
        if let value = query.first(where: { $0.name == "sslmode" })?.value {
            guard let parsed = TLSMode(rawValue: value) else {
                throw SettingsError.invalid(name: name, reason: "sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")), as libpq has them")
            }
            mode = parsed
        }
        var rootFile: String?
        if let value = query.first(where: { $0.name == "sslrootcert" })?.value, value != "system" {
            guard value.hasPrefix("/") else {
                throw SettingsError.invalid(name: name, reason: "sslrootcert must be an absolute path to a PEM file of CA certificates (or system)")
            }
            rootFile = value
            // libpq: "if a root CA file exists, sslmode=require behaves as verify-ca".
            if mode == .require { mode = .verifyCA }
        }
        self.init(
            host: host, port: components.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database, tlsMode: mode, rootCertificateFile: rootFile
        )
    }

    /// Safe to log: the password is never shown.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tlsMode.rawValue)"
            + (rootCertificateFile.map { "&sslrootcert=\($0)" } ?? "")
    }
}
