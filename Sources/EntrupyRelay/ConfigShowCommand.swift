import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayDatabase
import RelayRuntime

/// `config show`: each setting's effective value and where it came from, secrets redacted.
struct ConfigShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print each setting's effective value and where it came from (secrets redacted)."
    )

    func run() throws {
        let sources: SettingsSources
        do {
            sources = try SettingsSources.process()
        } catch {
            CommandEnvironment.fail("\(error)")
        }
        let reader = sources.reader()
        var problems: [String] = []
        // Defaults that follow other settings, as this process would compute them; a setting
        // that would stop start-up is a problem to show (those only `serve` needs: config check).
        var computed: [String: String] = [:]
        do {
            let settings = try RelaySettings(reader: reader, receiving: false)
            computed = ["database_pool_size": "\(settings.database.poolSize)", "database_pool_warm_size": "\(settings.database.poolWarmSize)"]
        } catch {
            problems.append("\(error)")
        }
        var rows: [(String, String, String)] = []
        for setting in RelaySettings.catalog {
            do {
                if let found = try reader.value(setting) {
                    rows.append((setting.environmentName, Self.shown(found.text, of: setting), found.origin))
                } else {
                    rows.append((setting.environmentName, computed[setting.key] ?? setting.defaultText, "default"))
                }
            } catch {
                rows.append((setting.environmentName, "?", "unreadable"))
                problems.append("\(error)")
            }
        }
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let valueWidth = min(48, rows.map(\.1.count).max() ?? 0)
        if let path = sources.configFilePath { print("config file: \(path)") }
        for (name, value, origin) in rows {
            print(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + value.padding(toLength: max(valueWidth, value.count), withPad: " ", startingAt: 0) + "  " + origin)
        }
        do {
            try sources.checkNames(RelaySettings.catalog)
        } catch {
            problems.append("\(error)")
        }
        for name in sources.unprefixedNames(RelaySettings.catalog) {
            print("warning: \(name.given) is set but read no more (since 0.1.0); the relay reads \(name.setting)")
        }
        for problem in problems { print("problem: \(problem)") }
        if !problems.isEmpty { throw ExitCode(1) }
    }

    /// A secret is never shown; the database's URL is, without its password; a collector's
    /// endpoint by its origin only (some collectors take a key in the URL).
    static func shown(_ text: String, of setting: Setting) -> String {
        if setting.key.hasPrefix("otel_exporter_otlp"), setting.key.hasSuffix("endpoint") { return MaskedURL.mask(text) }
        guard setting.isSecret else { return text }
        if setting.key == "database_url", let url = try? DatabaseURL(parsing: text) { return url.description }
        return "(secret, set)"
    }
}
