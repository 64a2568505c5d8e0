import Configuration
public import Foundation
public import RelayModel
import Yams

/// Where the relay's settings come from, strongest first: the environment
/// (`ENTRUPY_RELAY_…`, and `DATABASE_URL`, the name PostgreSQL tools know), then the YAML file
/// `ENTRUPY_RELAY_CONFIG_FILE` names (keys as the reference gives them: `port: 8080`), then
/// each setting's default. A secret may instead be in a file named by its `…_FILE` variable or
/// key, which is how systemd credentials arrive (`%d/entrupy-api-token`). Both sources are
/// swift-configuration providers; what they hold is checked against the catalog, so a
/// misspelt name stops start-up instead of being ignored.
public struct SettingsSources: Sendable {
    public static let configFileVariable = Setting.environmentPrefix + "CONFIG_FILE"

    let environment: [String: String]
    let environmentProvider: EnvironmentVariablesProvider
    let file: SettingsFile?
    let readFile: @Sendable (String) throws -> String

    /// Reads the config file the environment names, if any.
    public init(environment: [String: String], readFile: @escaping @Sendable (String) throws -> String) throws {
        self.environment = environment
        self.readFile = readFile
        environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
        if let path = environment[Self.configFileVariable]?.trimmingCharacters(in: .whitespaces), !path.isEmpty {
            let text: String
            do {
                text = try readFile(path)
            } catch {
                throw SettingsError.invalid(name: Self.configFileVariable, reason: "cannot read \(path)")
            }
            file = try SettingsFile(path: path, text: text)
        } else {
            file = nil
        }
    }

    /// The process's environment and files.
    public static func process(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SettingsSources {
        try SettingsSources(environment: environment) { path in try String(contentsOfFile: path, encoding: .utf8) }
    }

    public func reader() -> SettingsReader {
        SettingsReader(environment: environment, lookup: { setting in try lookup(setting) }, readFile: readFile)
    }

    /// Refuses a prefixed variable or a file key that is no setting, naming the nearest that is.
    public func checkNames(_ catalog: [Setting]) throws {
        let environmentNames = catalog.flatMap { [$0.environmentName] + ($0.isSecret ? [$0.fileEnvironmentName] : []) } + [Self.configFileVariable]
        let given = environment.keys.filter { $0.uppercased().hasPrefix(Setting.environmentPrefix) }
        let plain = Set(catalog.filter { !$0.isSecret }.map(\.environmentName))
        if let name = given.sorted().first(where: { $0.uppercased().hasSuffix("_FILE") && plain.contains(String($0.uppercased().dropLast(5))) }) {
            throw SettingsError.invalid(name: name, reason: "only secrets are read from a file; set \(name.dropLast(5)) itself")
        }
        if let unknown = SettingNameCheck.firstUnknown(Array(given), known: environmentNames) { throw unknown }
        if let file {
            let keys = catalog.flatMap { [$0.key] + ($0.isSecret ? [$0.key + "_file"] : []) }
            let plainKeys = Set(catalog.filter { !$0.isSecret }.map(\.key))
            if let key = file.keys.sorted().first(where: { $0.hasSuffix("_file") && plainKeys.contains(String($0.dropLast(5))) }) {
                throw SettingsError.invalid(name: "\(key) in \(file.path)", reason: "only secrets are read from a file; set \(key.dropLast(5)) itself")
            }
            switch SettingNameCheck.firstUnknown(file.keys, known: keys) {
            case .unknown(let name, let nearest)?: throw SettingsError.unknown(name: "\(name) in \(file.path)", nearest: nearest)
            case .removed(let name, let release, let why)?: throw SettingsError.removed(name: "\(name) in \(file.path)", release: release, why: why)
            default: break
            }
        }
    }

    /// Unprefixed variables named as settings were before 0.1.0, which are read no more: a
    /// warning each, since `PORT` or `HOST` may well belong to something else.
    public func unprefixedNames(_ catalog: [Setting]) -> [(given: String, setting: String)] {
        catalog.compactMap { setting in
            let old = setting.key.uppercased()
            guard setting.isPrefixed, Setting.aliases[setting.key] == nil, environment[old] != nil || (setting.isSecret && environment[old + "_FILE"] != nil) else { return nil }
            return (old, setting.environmentName)
        }
    }

    /// Where the config file is, for `config show`.
    public var configFilePath: String? { file?.path }

    func lookup(_ setting: Setting) throws -> SettingValue? {
        if let found = try fromEnvironment(setting.environmentName, secret: setting.isSecret) { return found }
        if let alias = Setting.aliases[setting.key], let found = try fromEnvironment(alias, secret: setting.isSecret) { return found }
        guard let file else { return nil }
        return try file.value(setting.key, secret: setting.isSecret, readFile: readFile)
    }

    private func fromEnvironment(_ name: String, secret: Bool) throws -> SettingValue? {
        let plain = try environmentText(name)
        guard secret, let path = try environmentText(name + "_FILE") else {
            return plain.map { SettingValue(text: $0, origin: name) }
        }
        if plain != nil { throw SettingsError.invalid(name: name + "_FILE", reason: "\(name) is set too; set one of them") }
        return SettingValue(text: try Self.secretFile(path, origin: name + "_FILE", readFile: readFile), origin: name + "_FILE")
    }

    private func environmentText(_ name: String) throws -> String? {
        guard case .string(let text)? = try environmentProvider.value(forKey: AbsoluteConfigKey([name]), type: .string).value?.content,
              !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// A secret's file: its text without the trailing newline editors add.
    static func secretFile(_ path: String, origin: String, readFile: (String) throws -> String) throws -> String {
        do {
            return try readFile(path.trimmingCharacters(in: .whitespacesAndNewlines)).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw SettingsError.invalid(name: origin, reason: "cannot read \(path.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
