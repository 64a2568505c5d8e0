import Foundation
import RelayApp
import RelayModel
import Testing

/// `config check | show | reference` as an operator runs them: the built binary, a real
/// PostgreSQL, the project's Entrupy simulator for the API.
@Suite("The config commands", .timeLimit(.minutes(3)))
struct ConfigCommandTests {
    static let secret = "config-webhook-secret-0123456789"

    @Test func aMisspeltSettingStopsStartUpAndTheCheckNamesTheNearest() async throws {
        let env = CommandLineTests.environment(nil, ["DATABASE_URL": "postgres://a@b/c", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": Self.secret,
                                                     "ENTRUPY_RELAY_WORKER_CONCURENCY": "4"])
        let serve = try await CommandLineTests.run(["serve", "--no-worker"], env: env)
        #expect(serve.status == 1)
        #expect(serve.stderr == "entrupy-relay: ENTRUPY_RELAY_WORKER_CONCURENCY is not a setting; did you mean ENTRUPY_RELAY_WORKER_CONCURRENCY?\n")
        let check = try await CommandLineTests.run(["config", "check", "--for", "serve-no-worker"], env: env)
        #expect(check.status == 1)
        #expect(check.stdout == "FAILED  settings  ENTRUPY_RELAY_WORKER_CONCURENCY is not a setting; did you mean ENTRUPY_RELAY_WORKER_CONCURRENCY?\n")
        // A bad value in the config file is named with the file.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).yaml")
        try "log_format: texxt\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var withFile = env
        withFile["ENTRUPY_RELAY_WORKER_CONCURENCY"] = nil
        withFile["ENTRUPY_RELAY_CONFIG_FILE"] = file.path
        let bad = try await CommandLineTests.run(["config", "check", "--for", "serve-no-worker"], env: withFile)
        #expect(bad.status == 1)
        #expect(bad.stdout == "FAILED  settings  log_format in \(file.path) is invalid: expected one of json, text\n")
    }

    @Test func showGivesEachValueAndItsOriginAndNoSecret() async throws {
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try "api-token-in-a-file-5f3a\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let env = CommandLineTests.environment(nil, [
            "DATABASE_URL": "postgres://relay:db-password-9c1e@db.example:5432/relay",
            "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": Self.secret,
            "ENTRUPY_RELAY_ENTRUPY_API_TOKEN_FILE": tokenFile.path,
            "ENTRUPY_RELAY_SMTP_URL": "smtp://mailer:smtp-password-77aa@mail.example:587", "ENTRUPY_RELAY_SMTP_FROM": "relay@example.com",
            "ENTRUPY_RELAY_PORT": "9000", "PORT": "1234",
            "OTEL_EXPORTER_OTLP_ENDPOINT": "https://tenant:collector-key-31b7@collector.example:4318/ingest?token=collector-token-8d2e",
        ])
        let show = try await CommandLineTests.run(["config", "show"], env: env)
        #expect(show.status == 0, "\(show.stdout)\(show.stderr)")
        for secret in [Self.secret, "api-token-in-a-file-5f3a", "db-password-9c1e", "smtp-password-77aa", "collector-key-31b7", "collector-token-8d2e"] {
            #expect(!show.stdout.contains(secret) && !show.stderr.contains(secret), "\(secret) shown")
        }
        let lines = show.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("ENTRUPY_RELAY_PORT 9000 ENTRUPY_RELAY_PORT"))
        #expect(lines.contains("ENTRUPY_RELAY_HOST 127.0.0.1 default"))
        #expect(lines.contains("ENTRUPY_RELAY_DATABASE_POOL_SIZE 20 default"), "worker_concurrency 16 + 4")
        #expect(lines.contains("ENTRUPY_RELAY_DATABASE_URL postgres://relay:***@db.example:5432/relay?sslmode=verify-full DATABASE_URL"))
        #expect(lines.contains("ENTRUPY_RELAY_ENTRUPY_API_TOKEN (secret, set) ENTRUPY_RELAY_ENTRUPY_API_TOKEN_FILE"))
        #expect(lines.contains("ENTRUPY_RELAY_SMTP_URL (secret, set) ENTRUPY_RELAY_SMTP_URL"))
        #expect(lines.contains("OTEL_EXPORTER_OTLP_ENDPOINT https://collector.example:4318/*** OTEL_EXPORTER_OTLP_ENDPOINT"))
        #expect(lines.contains("warning: PORT is set but read no more (since 0.1.0); the relay reads ENTRUPY_RELAY_PORT"))
        #expect(lines.count == RelaySettings.catalog.count + 1)
        // What would stop start-up is shown as a problem, and the exit says so.
        var incomplete = env
        incomplete["ENTRUPY_RELAY_SMTP_FROM"] = nil
        let problem = try await CommandLineTests.run(["config", "show"], env: incomplete)
        #expect(problem.status == 1)
        #expect(problem.stdout.hasSuffix("problem: ENTRUPY_RELAY_SMTP_FROM is required: set the sender address, e.g. relay@example.com, to send email\n"))
    }

    @Test func referenceIsTheCatalog() async throws {
        let reference = try await CommandLineTests.run(["config", "reference"], env: CommandLineTests.environment(nil))
        #expect(reference.status == 0)
        #expect(reference.stdout == ConfigReference.markdown())
        // The operator's settings by default; every setting with --all.
        let all = try await CommandLineTests.run(["config", "reference", "--all"], env: CommandLineTests.environment(nil))
        #expect(all.status == 0)
        #expect(all.stdout == ConfigReference.markdown(all: true))
        for setting in RelaySettings.catalog { #expect(all.stdout.contains("`\(setting.environmentName)`")) }
    }

    /// --connect reaches PostgreSQL and Entrupy (the simulator) and says what refused it.
    @Test func connectReachesTheDatabaseAndEntrupyAndNamesWhatRefused() async throws {
        try await TestDatabase.with { database async throws in try await TestSimulator.with(webhookURL: nil) { simulator async throws in
            var env = CommandLineTests.environment(database, [
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": Self.secret,
                "ENTRUPY_RELAY_ENTRUPY_API_URL": simulator.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
            ])
            let good = try await CommandLineTests.run(["config", "check", "--connect"], env: env)
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            #expect(good.stdout.contains("ok      database  "))
            #expect(good.stdout.contains("not encrypted, schema current"))
            #expect(good.stdout.contains("ok      entrupy   \(simulator.baseURL) (v1.4): answers, and accepts the token"))

            env["ENTRUPY_RELAY_ENTRUPY_API_TOKEN"] = "not-the-token"
            env["DATABASE_URL"] = env["DATABASE_URL"]!.replacingOccurrences(of: "://\(database.username):", with: "://\(database.username):wrong")
            let bad = try await CommandLineTests.run(["config", "check", "--connect"], env: env)
            #expect(bad.status == 1)
            #expect(bad.stdout.contains("FAILED  database  "), "\(bad.stdout)")
            #expect(bad.stdout.contains("password authentication failed"), "\(bad.stdout)")
            #expect(bad.stdout.contains("FAILED  entrupy   \(simulator.baseURL): Entrupy API: the token was refused (401)"), "\(bad.stdout)")
            #expect(!bad.stdout.contains("not-the-token"))
        } }
    }

    /// --connect greets the mail server, secures the session and signs in as a message would,
    /// and sends nothing; a wrong password is the server's refusal, said as it said it.
    @Test func connectSignsInToTheMailServerAndSendsNothing() async throws {
        let certificate = try await TestCertificate.make()
        try await TestSMTPServer.with(tls: .starttls, auth: true, certificate: certificate) { server async throws in
            let password = TestSMTPServer.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            var env = CommandLineTests.environment(nil, [
                "DATABASE_URL": "postgres://a@b/c?sslmode=disable",
                "ENTRUPY_RELAY_SMTP_URL": "smtp://\(TestSMTPServer.user):\(password)@localhost:\(server.port)?tls=starttls",
                "ENTRUPY_RELAY_SMTP_FROM": "relay@example.com", "ENTRUPY_RELAY_SMTP_CA_FILE": certificate.certificate,
            ])
            // Only the mail server's line matters here: the database at b is not reached.
            let good = try await CommandLineTests.run(["config", "check", "--connect", "--for", "tool"], env: env)
            #expect(good.stdout.contains("ok      smtp      localhost:\(server.port): greeted, TLS verified, signed in"), "\(good.stdout)")
            env["ENTRUPY_RELAY_SMTP_PASSWORD"] = "not-the-password"
            let refused = try await CommandLineTests.run(["config", "check", "--connect", "--for", "tool"], env: env)
            #expect(refused.status == 1)
            #expect(refused.stdout.contains("FAILED  smtp      localhost:\(server.port): "), "\(refused.stdout)")
            #expect(refused.stdout.contains("535"), "\(refused.stdout)")
            #expect(!refused.stdout.contains("not-the-password") && !refused.stdout.contains(password))
            #expect(try server.messages().isEmpty)
        }
    }
}
