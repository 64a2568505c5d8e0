import Foundation
public import RelayModel

/// Reads typed settings from their sources (`SettingsSources` in RelayRuntime builds it from
/// the environment, the config file and secret files). Pure: the caller passes how a setting
/// is looked up and how a file is read. Each value is checked here, and a bad one is refused
/// in one line naming where it came from.
public struct SettingsReader: Sendable {
    /// A setting's text and origin, or nil when no source sets it; throws a `SettingsError`
    /// when a source is itself wrong (a secret file that cannot be read).
    let lookup: @Sendable (Setting) throws -> SettingValue?
    let readFile: @Sendable (String) throws -> String
    /// The process's environment as given: the rules file's `${NAME}` secrets read it.
    public let environment: [String: String]

    public init(
        environment: [String: String],
        lookup: @escaping @Sendable (Setting) throws -> SettingValue?,
        readFile: @escaping @Sendable (String) throws -> String
    ) {
        self.environment = environment
        self.lookup = lookup
        self.readFile = readFile
    }

    /// The value as given and where from, or nil when unset or blank.
    public func value(_ setting: Setting) throws -> SettingValue? {
        guard let found = try lookup(setting) else { return nil }
        let text = found.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : SettingValue(text: text, origin: found.origin)
    }

    public func text(_ setting: TextSetting) throws -> String? {
        try value(setting.setting)?.text ?? setting.defaultValue
    }

    /// The text parsed by `parse` (the default's too, when unset); nil when unset without a
    /// default. A `SettingProblem` it throws is refused naming where the text came from.
    public func parsed<T>(_ setting: TextSetting, _ parse: (String) throws(SettingProblem) -> T) throws -> T? {
        let found = try value(setting.setting)
        guard let text = found?.text ?? setting.defaultValue else { return nil }
        do {
            return try parse(text)
        } catch {
            throw SettingsError.invalid(name: found?.origin ?? setting.setting.environmentName, reason: error.reason)
        }
    }

    /// The name an error about this setting should give: where its value came from, else its variable.
    public func origin(_ setting: Setting) -> String {
        (try? value(setting)).flatMap { $0 }?.origin ?? setting.environmentName
    }

    public func integer(_ setting: IntegerSetting, default override: Int? = nil, range narrower: ClosedRange<Int>? = nil) throws -> Int {
        let range = narrower ?? setting.range
        guard let found = try value(setting.setting) else { return override ?? setting.defaultValue }
        guard let parsed = Int(found.text), range.contains(parsed) else {
            throw SettingsError.invalid(name: found.origin, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(found.text.prefix(64))\"")
        }
        return parsed
    }

    /// Nil when unset (a setting whose absence means "off", such as a second port).
    public func optionalInteger(_ setting: IntegerSetting) throws -> Int? {
        try value(setting.setting) == nil ? nil : integer(setting)
    }

    /// A decimal number within range (NaN, infinities and text refused).
    public func decimal(_ setting: DecimalSetting) throws -> Double {
        guard let found = try value(setting.setting) else { return setting.defaultValue }
        guard let parsed = Double(found.text), parsed.isFinite, setting.range.contains(parsed) else {
            throw SettingsError.invalid(name: found.origin, reason: "expected a number from \(setting.range.lowerBound) to \(setting.range.upperBound), got \"\(found.text.prefix(64))\"")
        }
        return parsed
    }

    public func bool(_ setting: BoolSetting) throws -> Bool {
        guard let found = try value(setting.setting) else { return setting.defaultValue }
        switch found.text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw SettingsError.invalid(name: found.origin, reason: "expected true or false, got \"\(found.text.prefix(64))\"")
        }
    }

    /// Comma-separated values with blanks removed.
    public func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether the file at `path` can be read (a CA file a setting names), so a setting that
    /// names one is refused at start with its name rather than at the first connection.
    public func canRead(_ path: String) -> Bool {
        (try? readFile(path)) != nil
    }

    /// A secret the rules file names as `${NAME}`: the variable `NAME`, or the file `NAME_FILE`
    /// names (trailing newline trimmed). These are the operator's own names, not settings.
    public func namedSecret(_ name: String) throws -> String? {
        if let path = environment[name + "_FILE"]?.trimmingCharacters(in: .whitespacesAndNewlines), !path.isEmpty {
            do {
                let text = try readFile(path).trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            } catch {
                throw SettingsError.invalid(name: name + "_FILE", reason: "cannot read \(path)")
            }
        }
        guard let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}
