import EntrupyAPI
import RelayApp
import RelayModel
import RelayDatabase
import RelayRuntime
import Testing

/// Pure (no database): each module's settings read from a given environment, gathered by
/// `RelaySettings` in RelayApp, which is why the suite lives in this target.
@Suite("Settings from the environment")
struct SettingsTests {
    let base = ["DATABASE_URL": "postgres://relay:p%40ss@db.example:6543/relay?sslmode=require", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "first-secret-0123456789, second-secret-0123456789 ,"]

    func settings(_ env: [String: String], receiving: Bool = true, files: [String: String] = [:]) throws -> RelaySettings {
        let sources = try SettingsSources(environment: env) { path in
            guard let text = files[path] else { throw SettingsError.invalid(name: "test", reason: "no file") }
            return text
        }
        try sources.checkNames(RelaySettings.catalog)
        return try RelaySettings(reader: sources.reader(), receiving: receiving)
    }

    @Test func defaultsAndParsing() throws {
        let s = try settings(base)
        #expect(s.database.url == DatabaseURL(host: "db.example", port: 6543, username: "relay", password: "p@ss", database: "relay", tlsMode: .require))
        #expect(s.receiver.entrupyWebhookSecrets.map(\.keyBytes) == [Array("first-secret-0123456789".utf8), Array("second-secret-0123456789".utf8)])
        #expect(s.receiver.webhookMaxBodyBytes == 1_048_576)
        #expect(s.http.port == 8080 && s.http.host == "127.0.0.1")
        #expect(s.entrupy.url == "https://api.entrupy.com")
        #expect(s.http.trustedProxies.map(\.description) == ["127.0.0.1/32", "::1/128"])
        #expect(!s.database.url.description.contains("p@ss"))
        #expect(s.worker.concurrency == 16 && s.database.poolSize == 20)
    }

    /// Each running job may hold a connection: the pool follows the worker's concurrency
    /// unless it is set.
    @Test func poolFollowsWorkerConcurrency() throws {
        #expect(try settings(base.merging(["ENTRUPY_RELAY_WORKER_CONCURRENCY": "2"]) { $1 }).database.poolSize == 16)
        #expect(try settings(base.merging(["ENTRUPY_RELAY_WORKER_CONCURRENCY": "64"]) { $1 }).database.poolSize == 68)
        #expect(try settings(base.merging(["ENTRUPY_RELAY_WORKER_CONCURRENCY": "1000"]) { $1 }).database.poolSize == 500)
        #expect(try settings(base.merging(["ENTRUPY_RELAY_WORKER_CONCURRENCY": "64", "ENTRUPY_RELAY_DATABASE_POOL_SIZE": "10"]) { $1 }).database.poolSize == 10)
    }

    /// The whole pool is warmed at start unless told otherwise, and never more than the pool.
    @Test func keptConnectionsDefaultToThePool() throws {
        #expect(try settings(base.merging(["ENTRUPY_RELAY_WORKER_CONCURRENCY": "64"]) { $1 }).database.poolWarmSize == 68)
        #expect(try settings(base.merging(["ENTRUPY_RELAY_DATABASE_POOL_SIZE": "10", "ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE": "0"]) { $1 }).database.poolWarmSize == 0)
        for value in ["11", "-1", "ten", "1e3", "9223372036854775808"] {
            #expect(throws: SettingsError.self, "ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE=\(value)") {
                _ = try settings(base.merging(["ENTRUPY_RELAY_DATABASE_POOL_SIZE": "10", "ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE": value]) { $1 })
            }
        }
    }

    /// libpq's sslmode values with libpq's meanings; absent, the safest (verify-full).
    @Test func databaseTLSTakesLibpqsModesAndIsVerifiedUnlessTheURLSaysOtherwise() throws {
        #expect(try DatabaseURL(parsing: "postgres://relay@db.example/relay").tlsMode == .verifyFull)
        for mode in DatabaseURL.TLSMode.allCases {
            #expect(try DatabaseURL(parsing: "postgres://relay@db.example/relay?sslmode=\(mode.rawValue)").tlsMode == mode)
        }
        // libpq: with a root CA file, require behaves as verify-ca.
        let rooted = try DatabaseURL(parsing: "postgres://relay@db.example/relay?sslmode=require&sslrootcert=/etc/ssl/db-ca.pem")
        #expect(rooted.tlsMode == .verifyCA)
        #expect(rooted.rootCertificateFile == "/etc/ssl/db-ca.pem")
        #expect(rooted.description == "postgres://relay@db.example:5432/relay?sslmode=verify-ca&sslrootcert=/etc/ssl/db-ca.pem")
        #expect(try DatabaseURL(parsing: "postgres://relay@db.example/relay?sslrootcert=system").rootCertificateFile == nil)
        for bad in ["sslmode=verify", "sslmode=REQUIRE", "sslmode=", "sslrootcert=ca.pem"] {
            #expect(throws: SettingsError.self, "\(bad)") { try DatabaseURL(parsing: "postgres://relay@db.example/relay?\(bad)") }
        }
        do {
            _ = try DatabaseURL(parsing: "postgres://relay@db.example/relay?sslmode=verify")
        } catch {
            #expect("\(error)" == "DATABASE_URL is invalid: sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full, as libpq has them")
        }
        // A CA file that cannot be read stops start-up with the setting's name, not the first connection.
        #expect(throws: SettingsError.invalid(name: "DATABASE_URL", reason: "sslrootcert /nowhere/ca.pem cannot be read")) {
            try settings(base.merging(["DATABASE_URL": "postgres://relay@db.example/relay?sslmode=verify-full&sslrootcert=/nowhere/ca.pem"]) { $1 })
        }
    }

    @Test func missingRequiredSettingsNameTheVariable() {
        #expect(throws: SettingsError.missing(name: "ENTRUPY_RELAY_DATABASE_URL", hint: "set it (or DATABASE_URL) to postgres://user:password@host:5432/database")) {
            try settings([:])
        }
        do {
            _ = try settings(["DATABASE_URL": base["DATABASE_URL"]!])
            Issue.record("expected a missing secret error")
        } catch {
            #expect("\(error)".hasPrefix("ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS is required"))
        }
        // Commands that do not receive webhooks need no secret.
        #expect((try? settings(["DATABASE_URL": base["DATABASE_URL"]!], receiving: false)) != nil)
    }

    @Test("invalid values are named", arguments: [
        ("DATABASE_URL", "mysql://x@y/z"), ("DATABASE_URL", "postgres://host/db"), ("ENTRUPY_RELAY_WEBHOOK_MAX_BODY_BYTES", "lots"),
        ("ENTRUPY_RELAY_WEBHOOK_MAX_BODY_BYTES", "0"), ("ENTRUPY_RELAY_TRUSTED_PROXIES", "10.0.0.0/99"), ("ENTRUPY_RELAY_LOG_LEVEL", "loud"), ("ENTRUPY_RELAY_LOG_FORMAT", "texxt"), ("ENTRUPY_RELAY_PORT", "70000"),
        ("ENTRUPY_RELAY_ENTRUPY_API_URL", "ftp://x"), ("ENTRUPY_RELAY_STANDARD_WEBHOOK_SECRETS", "whsec_???"),
        ("ENTRUPY_RELAY_ENTRUPY_API_VERSION", "3"), ("ENTRUPY_RELAY_ENTRUPY_API_VERSION", "v2"), ("ENTRUPY_RELAY_ENTRUPY_API_VERSION_HEADER", "1.4\r\nX: y"),
        ("ENTRUPY_RELAY_ENTRUPY_API_ITEM_PATH", "/v2/authentications"), ("ENTRUPY_RELAY_ENTRUPY_API_LOOKUP_PATH", "http://evil/{customer_item_id}"),
        ("ENTRUPY_RELAY_ENTRUPY_API_SEARCH_PATH", "/v2/search?x=1"), ("ENTRUPY_RELAY_ENTRUPY_API_HEALTH_PATH", "/v2/{id}"),
        ("ENTRUPY_RELAY_SYNC_TIERS", "1d@0"), ("ENTRUPY_RELAY_SYNC_TIERS", "all@1d,1d@0"),
    ])
    func invalid(_ name: String, _ value: String) {
        var env = base
        env[name] = value
        do {
            _ = try settings(env)
            Issue.record("\(name)=\(value) should be refused")
        } catch let error as SettingsError {
            guard case .invalid(let reported, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(reported == name)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// v2 by default, as Entrupy advises; 1.4 takes v1's documented routes and header; a moved
    /// route is one setting.
    @Test func theAPIVersionPicksItsRoutes() throws {
        #expect(try settings(base).entrupy.routes == .v2)
        var env = base
        env["ENTRUPY_RELAY_ENTRUPY_API_VERSION"] = "1.4"
        #expect(try settings(env).entrupy.routes == .v1_4)
        env["ENTRUPY_RELAY_ENTRUPY_API_VERSION_HEADER"] = "none"
        env["ENTRUPY_RELAY_ENTRUPY_API_SEARCH_PATH"] = "/v1.5/search/authentications"
        let moved = try settings(env).entrupy.routes
        #expect(moved.versionHeader == nil && moved.search == "/v1.5/search/authentications" && moved.item == EntrupyAPIRoutes.v1_4.item)
        #expect(try settings(base).worker.syncTiers == .standard)
    }

    @Test func secretsMayComeFromFiles() throws {
        var env = base
        env["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS"] = nil
        env["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE"] = "/run/secrets/webhook"
        let s = try settings(env, files: ["/run/secrets/webhook": "from-file-0123456789\n"])
        #expect(s.receiver.entrupyWebhookSecrets.map(\.keyBytes) == [Array("from-file-0123456789".utf8)])
        env["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE"] = "/missing"
        #expect(throws: SettingsError.invalid(name: "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE", reason: "cannot read /missing")) { try settings(env) }
    }

    /// Issue 10, item 12: a secret anyone could guess is refused at start-up, with its length.
    @Test func shortWebhookSecretsAreRefused() throws {
        var env = base
        env["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS"] = "long-enough-secret-0123,x"
        #expect(throws: SettingsError.invalid(name: "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS", reason:
            "each secret must be at least 16 bytes (a short secret can be guessed); one has 1")) { try settings(env) }
        env = base
        env["ENTRUPY_RELAY_STANDARD_WEBHOOK_SECRETS"] = "whsec_" + "c2hvcnQ="
        #expect(throws: SettingsError.invalid(name: "ENTRUPY_RELAY_STANDARD_WEBHOOK_SECRETS", reason:
            "each secret must decode to at least 16 bytes; one decodes to 5")) { try settings(env) }
    }

}
