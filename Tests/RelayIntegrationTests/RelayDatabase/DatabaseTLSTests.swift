import Foundation
import Logging
import PostgresNIO
import RelayApp
import RelayModel
import Testing

/// `DATABASE_URL`'s sslmode against a PostgreSQL serving TLS with a certificate for `localhost`
/// only, signed by a test CA (`./deploy/local.sh test` sets the cluster up and names the CA in
/// TEST_DATABASE_CA): each mode connects, or refuses, as libpq's would.
@Suite("libpq's sslmode values against a TLS PostgreSQL", .timeLimit(.minutes(2)),
       .enabled(if: ProcessInfo.processInfo.environment["TEST_DATABASE_CA"] != nil, "needs the test cluster's CA (TEST_DATABASE_CA)"))
struct DatabaseTLSTests {
    static var ca: String { ProcessInfo.processInfo.environment["TEST_DATABASE_CA"] ?? "" }

    /// The test database's URL with `host` and the query given.
    static func url(host: String, _ query: String) throws -> DatabaseURL {
        let admin = try TestDatabase.adminURL()
        let password = admin.password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
        return try DatabaseURL(parsing: "postgres://\(admin.username)\(password)@\(host):\(admin.port)/\(admin.database)?\(query)")
    }

    struct NoConnection: Error {}

    /// Whether the connection is encrypted; a failure when none could be made within 8 s (the
    /// pool retries a refused handshake rather than failing the query, as it does for a
    /// database that is down, so a refusal shows as no connection).
    static func connect(_ url: DatabaseURL) async -> Result<Bool, any Error> {
        do {
            let encrypted = try await withThrowingTaskGroup(of: Bool?.self) { group in
                group.addTask {
                    try await DatabaseClientFactory.withClient(url, logger: TestDatabase.logger) { client in
                        let rows = try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: TestDatabase.logger)
                        for try await ssl in rows.decode(Bool.self) { return ssl }
                        return false
                    }
                }
                group.addTask { try await Task.sleep(for: .seconds(8)); return nil }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let encrypted = first else { throw NoConnection() }
                return encrypted
            }
            return .success(encrypted)
        } catch {
            return .failure(error)
        }
    }

    static func refuses(_ url: DatabaseURL) async -> Bool {
        if case .failure = await connect(url) { return true }
        return false
    }

    /// `config check --connect` makes one connection, so a refused handshake is shown as TLS
    /// said it, with what to change, where the pool would only retry.
    @Test func configCheckSaysWhyTLSRefused() async throws {
        func check(_ url: DatabaseURL) async throws -> CommandLineTests.Run {
            var env = CommandLineTests.environment(nil)
            env["DATABASE_URL"] = "postgres://\(url.username):\(url.password ?? "")@\(url.host):\(url.port)/\(url.database)?sslmode=\(url.tlsMode.rawValue)"
                + (url.rootCertificateFile.map { "&sslrootcert=\($0)" } ?? "")
            return try await CommandLineTests.run(["config", "check", "--connect", "--for", "tool"], env: env)
        }
        let good = try await check(Self.url(host: "localhost", "sslmode=verify-full&sslrootcert=\(Self.ca)"))
        #expect(good.status == 0, "\(good.stdout)")
        #expect(good.stdout.contains("TLS (sslmode=verify-full)"))
        let wrongName = try await check(Self.url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(Self.ca)"))
        #expect(wrongName.status == 1)
        #expect(wrongName.stdout.contains("(the server's certificate is not for 127.0.0.1: connect by the name it was issued for, or use sslmode=verify-ca)"), "\(wrongName.stdout)")
        let noRoot = try await check(Self.url(host: "localhost", "sslmode=verify-full"))
        #expect(noRoot.status == 1)
        #expect(noRoot.stdout.contains("(the server's certificate does not chain to the system's CAs: name its CA with sslrootcert)"), "\(noRoot.stdout)")
        let unverified = try await check(Self.url(host: "127.0.0.1", "sslmode=require"))
        #expect(unverified.status == 0 && unverified.stdout.contains("TLS (sslmode=require)"), "\(unverified.stdout)")
    }

    @Test func verifiedModesCheckTheCAAndTheHost() async throws {
        // verify-full: the test CA and the certificate's own host name.
        #expect(try await Self.connect(Self.url(host: "localhost", "sslmode=verify-full&sslrootcert=\(Self.ca)")).get() == true)
        // The same certificate reached as 127.0.0.1: the CA is right, the name is not.
        #expect(try await Self.refuses(Self.url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(Self.ca)")))
        // verify-ca checks the CA only; require with a root file is verify-ca (libpq's rule).
        #expect(try await Self.connect(Self.url(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(Self.ca)")).get() == true)
        #expect(try await Self.connect(Self.url(host: "127.0.0.1", "sslmode=require&sslrootcert=\(Self.ca)")).get() == true)
        // The system's CAs do not know the test CA: verified modes refuse without sslrootcert.
        #expect(try await Self.refuses(Self.url(host: "localhost", "sslmode=verify-full")))
        #expect(try await Self.refuses(Self.url(host: "localhost", "")))
    }

    @Test func unverifiedModesEncryptWithoutCheckingAndDisableDoesNot() async throws {
        for mode in ["require", "prefer", "allow"] {
            #expect(try await Self.connect(Self.url(host: "127.0.0.1", "sslmode=\(mode)")).get() == true, "\(mode): encrypted, not verified")
        }
        #expect(try await Self.connect(Self.url(host: "127.0.0.1", "sslmode=disable")).get() == false)
    }
}
