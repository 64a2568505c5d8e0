import Foundation
import Synchronization
import RelayApp
import RelayModel
import RelayRuntime
import Testing

/// Pure: where settings come from (the environment under one prefix, the YAML file, secret
/// files), how a misspelt name is caught, and the catalog that the reference and docs/configuration.md share.
@Suite("Configuration sources and the catalog")
struct ConfigSourcesTests {
    let required = ["DATABASE_URL": "postgres://relay@db.example/relay", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "webhook-secret-0123456789"]

    func sources(_ env: [String: String], files: [String: String] = [:]) throws -> SettingsSources {
        try SettingsSources(environment: env) { path in
            guard let text = files[path] else { throw CocoaError(.fileNoSuchFile) }
            return text
        }
    }

    func settings(_ env: [String: String], files: [String: String] = [:]) throws -> RelaySettings {
        let sources = try sources(env, files: files)
        try sources.checkNames(RelaySettings.catalog)
        return try RelaySettings(reader: sources.reader(), receiving: true)
    }

    @Test func aMisspeltPrefixedVariableStopsStartUpNamingTheNearest() throws {
        #expect(throws: SettingsError.unknown(name: "ENTRUPY_RELAY_PROT", nearest: "ENTRUPY_RELAY_PORT")) {
            try settings(required.merging(["ENTRUPY_RELAY_PROT": "9000"]) { $1 })
        }
        #expect(throws: SettingsError.unknown(name: "ENTRUPY_RELAY_DATABASE_POOL_SZE", nearest: "ENTRUPY_RELAY_DATABASE_POOL_SIZE")) {
            try settings(required.merging(["ENTRUPY_RELAY_DATABASE_POOL_SZE": "9"]) { $1 })
        }
        // In another case the name is not the setting's, and values are read by exact name.
        #expect(throws: SettingsError.unknown(name: "entrupy_relay_port", nearest: "ENTRUPY_RELAY_PORT")) {
            try settings(required.merging(["entrupy_relay_port": "9000"]) { $1 })
        }
        #expect(throws: SettingsError.unknown(name: "ENTRUPY_RELAY_COLOUR_SCHEME", nearest: nil)) {
            try settings(required.merging(["ENTRUPY_RELAY_COLOUR_SCHEME": "dark"]) { $1 })
        }
        // Only secrets may come from a file.
        #expect(throws: SettingsError.invalid(name: "ENTRUPY_RELAY_PORT_FILE", reason: "only secrets are read from a file; set ENTRUPY_RELAY_PORT itself")) {
            try settings(required.merging(["ENTRUPY_RELAY_PORT_FILE": "/x"]) { $1 })
        }
        #expect("\(SettingsError.unknown(name: "ENTRUPY_RELAY_PROT", nearest: "ENTRUPY_RELAY_PORT"))"
            == "ENTRUPY_RELAY_PROT is not a setting; did you mean ENTRUPY_RELAY_PORT?")
        // Other programs' variables are not the relay's business.
        #expect(try settings(required.merging(["PATH": "/bin", "RELAY_TEST_PG_PORT": "1", "ENTRUPY_RELAYX": "1"]) { $1 }).http.port == 8080)
    }

    @Test func unprefixedNamesOfBefore010AreReportedNotRead() throws {
        let given = required.merging(["PORT": "9000", "ENTRUPY_API_TOKEN_FILE": "/run/token", "DATABASE_URL": "postgres://a@b/c"]) { $1 }
        let found = try sources(given).unprefixedNames(RelaySettings.catalog)
        #expect(found.map(\.given).sorted() == ["ENTRUPY_API_TOKEN", "PORT"])
        #expect(try settings(given).http.port == 8080)
    }

    @Test func databaseURLIsReadUnderItsConventionalNameButThePrefixedOneWins() throws {
        #expect(try settings(required).database.url.host == "db.example")
        let both = required.merging(["ENTRUPY_RELAY_DATABASE_URL": "postgres://relay@primary.example/relay"]) { $1 }
        #expect(try settings(both).database.url.host == "primary.example")
        var fromFile = required
        fromFile["DATABASE_URL"] = nil
        fromFile["DATABASE_URL_FILE"] = "/run/credentials/database-url"
        #expect(try settings(fromFile, files: ["/run/credentials/database-url": "postgres://relay@credential.example/relay\n"]).database.url.host == "credential.example")
        // A secret given twice in one source is a mistake, not a precedence puzzle.
        var twice = required
        twice["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE"] = "/run/secret"
        #expect(throws: SettingsError.invalid(name: "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS_FILE",
                                              reason: "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS is set too; set one of them")) {
            try settings(twice, files: ["/run/secret": "webhook-secret-from-file"])
        }
    }

    @Test func theConfigFileSetsWhatTheEnvironmentDoesNot() throws {
        let yaml = """
            # the relay's settings
            port: 9100
            worker_concurrency: 4
            trusted_proxies: [10.0.0.0/8, 192.168.1.1]
            log_format: text
            entrupy_api_token_file: /etc/entrupy-relay/token
            smtp_password: ""
            smtp_password_file: /etc/entrupy-relay/smtp
            smtp_helo_name:
            smtp_ca_file: ~
            """
        let env = required.merging([SettingsSources.configFileVariable: "/etc/entrupy-relay/relay.yaml", "ENTRUPY_RELAY_WORKER_CONCURRENCY": "8"]) { $1 }
        let files = ["/etc/entrupy-relay/relay.yaml": yaml, "/etc/entrupy-relay/token": "api-token-from-file\n", "/etc/entrupy-relay/smtp": "pw"]
        let s = try settings(env, files: files)
        #expect(s.http.port == 9100)
        #expect(s.worker.concurrency == 8, "the environment wins")
        #expect(s.http.trustedProxies.map(\.description) == ["10.0.0.0/8", "192.168.1.1"])
        #expect(s.logFormat == .text)
        #expect(s.entrupy.token == "api-token-from-file")
        #expect(s.notify.smtpPassword == "pw", "a blank value is unset, as in the environment")
        #expect(s.notify.smtpHeloName == nil && s.notify.smtpCAFile == nil, "so is a key given no value")
        let reader = try sources(env, files: files).reader()
        #expect(try reader.value(RelaySettings.catalog.first { $0.key == "port" }!) == SettingValue(text: "9100", origin: "port in /etc/entrupy-relay/relay.yaml"))
    }

    @Test("a config file's mistakes are named with the file", arguments: [
        ("prot: 9100", "prot in /c.yaml is not a setting; did you mean port?"),
        ("Port: 9100", "Port in /c.yaml is not a setting; did you mean port?"),
        ("port_file: /p", "port_file in /c.yaml is invalid: only secrets are read from a file; set port itself"),
        ("database:\n  pool_size: 3", "database.pool_size in /c.yaml is not a setting; did you mean database_pool_size?"),
        ("port: lots", "port in /c.yaml is invalid: expected a whole number from 0 to 65535, got \"lots\""),
        ("port: [1, 2]", "port in /c.yaml is invalid: expected a whole number from 0 to 65535, got \"1,2\""),
        ("- port", "/c.yaml is invalid: expected a mapping of settings, such as port: 8080"),
        ("port: 1\n  bad: [", "/c.yaml is invalid: not YAML: "),
    ])
    func configFileMistakes(_ yaml: String, _ message: String) {
        let env = required.merging([SettingsSources.configFileVariable: "/c.yaml"]) { $1 }
        do {
            _ = try settings(env, files: ["/c.yaml": yaml])
            Issue.record("\(yaml) should be refused")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
        }
    }

    @Test func aMissingConfigFileIsNamed() throws {
        let env = required.merging([SettingsSources.configFileVariable: "/nowhere.yaml"]) { $1 }
        #expect(throws: SettingsError.invalid(name: "ENTRUPY_RELAY_CONFIG_FILE", reason: "cannot read /nowhere.yaml")) { try settings(env) }
        // An empty file sets nothing.
        #expect(try settings(env, files: ["/nowhere.yaml": "# nothing yet\n"]).http.port == 8080)
    }

    /// The catalog is what the relay reads: every setting it reads is listed, and every listed one is read.
    @Test func theCatalogIsExactlyWhatTheRelayReads() throws {
        let read = Mutex<Set<String>>([])
        let reader = SettingsReader(environment: [:], lookup: { setting in
            read.withLock { _ = $0.insert(setting.key) }
            switch setting.key {
            case "database_url": return SettingValue(text: "postgres://relay@db.example/relay", origin: "test")
            case "entrupy_webhook_secrets": return SettingValue(text: "webhook-secret-0123456789", origin: "test")
            case "smtp_url": return SettingValue(text: "smtp://mail.example", origin: "test")
            case "smtp_from": return SettingValue(text: "relay@example.com", origin: "test")
            case "metrics_port": return SettingValue(text: "9464", origin: "test")
            default: return nil
            }
        }, readFile: { _ in "" })
        _ = try RelaySettings(reader: reader, receiving: true, reconciling: false)
        let catalog = RelaySettings.catalog.map(\.key)
        #expect(read.withLock { $0 } == Set(catalog))
        #expect(Set(catalog).count == catalog.count, "keys are unique")
        #expect(catalog.allSatisfy { $0 == $0.lowercased() })
        // A secret's file name is never another setting's name.
        #expect(RelaySettings.catalog.filter(\.isSecret).allSatisfy { !catalog.contains($0.key + "_file") })
    }

    /// docs/configuration.md's table is `config reference`'s output, between its markers.
    @Test func theConfigurationPageTableIsTheReference() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let begin = "<!-- config reference: begin (entrupy-relay config reference) -->\n", end = "<!-- config reference: end -->"
        guard let start = page.range(of: begin), let stop = page.range(of: end, range: start.upperBound..<page.endIndex) else {
            Issue.record("docs/configuration.md has no config reference markers")
            return
        }
        #expect(String(page[start.upperBound..<stop.lowerBound]) == ConfigReference.markdown(),
                "regenerate it: entrupy-relay config reference")
    }
}
