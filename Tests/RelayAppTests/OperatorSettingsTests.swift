import Foundation
import RelayApp
import RelayModel
import RelayRuntime
import Testing

/// Settings an operator can hold in their head: `config reference` lists the few they set, each
/// with why, `--all` adds the tuning knobs, and a setting that is gone says so and why.
@Suite("The operator's settings, the tuning knobs and the removed ones")
struct OperatorSettingsTests {
    let required = ["DATABASE_URL": "postgres://relay@db.example/relay", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "webhook-secret-0123456789"]

    func settings(_ env: [String: String], files: [String: String] = [:]) throws -> RelaySettings {
        let sources = try SettingsSources(environment: env) { path in
            guard let text = files[path] else { throw CocoaError(.fileNoSuchFile) }
            return text
        }
        try sources.checkNames(RelaySettings.catalog)
        return try RelaySettings(reader: sources.reader(), receiving: true)
    }

    @Test func theReferenceListsTwentyOrFewerOperatorSettingsEachWithWhy() {
        let operators = RelaySettings.catalog.filter { $0.audience != .tuning }
        #expect(!operators.isEmpty && operators.count <= 20, "\(operators.count) operator settings")
        #expect(operators.allSatisfy { !($0.audience.why ?? "").isEmpty })
        let reference = ConfigReference.markdown()
        for setting in RelaySettings.catalog {
            let listed = reference.contains("| `\(setting.environmentName)`")
            #expect(listed == (setting.audience != .tuning), "\(setting.environmentName)")
        }
        #expect(reference.contains("`entrupy-relay config reference --all`"))
        for required in ["database_url", "entrupy_webhook_secrets", "entrupy_api_token", "port", "public_url", "smtp_url", "rules_file", "log_level"] {
            #expect(operators.contains { $0.key == required }, "\(required)")
        }
    }

    @Test func allListsEveryOtherSettingAsATuningKnob() throws {
        let all = ConfigReference.markdown(all: true)
        let tuning = try #require(all.range(of: "### Tuning knobs"))
        for setting in RelaySettings.catalog {
            let row = try #require(all.range(of: "| `\(setting.environmentName)`"), "\(setting.environmentName)")
            #expect((row.lowerBound > tuning.lowerBound) == (setting.audience == .tuning), "\(setting.environmentName)")
        }
        #expect(all.hasPrefix(ConfigReference.markdown().components(separatedBy: "\nThe other ").first ?? "?"))
    }

    /// A removed setting, in the environment (or as its `_FILE`) or the file, stops start-up saying it is gone and why.
    @Test func aRemovedSettingIsAnErrorThatSaysItIsGoneAndWhy() throws {
        let why = try #require(RemovedSetting.all.first { $0.key == "console_secure_cookies" }).why
        #expect(!RelaySettings.catalog.contains { $0.key == "console_secure_cookies" })
        for name in ["ENTRUPY_RELAY_CONSOLE_SECURE_COOKIES", "ENTRUPY_RELAY_CONSOLE_SECURE_COOKIES_FILE"] {
            #expect(throws: SettingsError.removed(name: name, release: "0.2.0", why: why)) {
                try settings(required.merging([name: "true"]) { $1 })
            }
        }
        let env = required.merging([SettingsSources.configFileVariable: "/c.yaml"]) { $1 }
        #expect(throws: SettingsError.removed(name: "console_secure_cookies in /c.yaml", release: "0.2.0", why: why)) {
            try settings(env, files: ["/c.yaml": "console_secure_cookies: true\n"])
        }
        let message = "\(SettingsError.removed(name: "ENTRUPY_RELAY_CONSOLE_SECURE_COOKIES", release: "0.2.0", why: why))"
        #expect(message.hasPrefix("ENTRUPY_RELAY_CONSOLE_SECURE_COOKIES is gone (removed in 0.2.0): console cookies are `Secure`"), "\(message)")
        // What it did is what an https public URL does.
        #expect(try settings(required.merging(["ENTRUPY_RELAY_PUBLIC_URL": "https://relay.example.com"]) { $1 }).http.consoleSecureCookies)
        #expect(try !settings(required.merging(["ENTRUPY_RELAY_PUBLIC_URL": "http://relay.internal"]) { $1 }).http.consoleSecureCookies)
    }
}
