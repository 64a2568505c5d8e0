import Foundation

/// Reads settings from an environment dictionary. Secrets may also come from a file named
/// by `NAME_FILE` (the Docker/Kubernetes convention), so they need not sit in the environment.
/// Pure: the caller passes how to read a file (`EnvironmentReader.process` in RelayRuntime
/// reads the process's environment and the file system).
public struct EnvironmentReader: Sendable {
    public let environment: [String: String]
    let readFile: @Sendable (String) throws -> String

    public init(
        environment: [String: String],
        readFile: @escaping @Sendable (String) throws -> String
    ) {
        self.environment = environment
        self.readFile = readFile
    }

    /// The value, or nil when unset or blank.
    public func string(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// A secret from `NAME` or from the file named by `NAME_FILE` (trailing newline trimmed).
    /// Whether the file at `path` can be read (a CA file a setting names), so a setting that
    /// names one is refused at start with its name rather than at the first connection.
    public func canRead(_ path: String) -> Bool {
        (try? readFile(path)) != nil
    }

    public func secret(_ name: String) throws -> String? {
        if let path = string(name + "_FILE") {
            do {
                let text = try readFile(path).trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            } catch {
                throw SettingsError.invalid(name: name + "_FILE", reason: "cannot read \(path)")
            }
        }
        return string(name)
    }

    public func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = string(name) else { return value }
        guard let parsed = Int(text), range.contains(parsed) else {
            throw SettingsError.invalid(name: name, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return parsed
    }

    /// A decimal number within `range` (NaN, infinities and text refused).
    public func decimal(_ name: String, default value: Double, range: ClosedRange<Double>) throws -> Double {
        guard let text = string(name) else { return value }
        guard let parsed = Double(text), parsed.isFinite, range.contains(parsed) else {
            throw SettingsError.invalid(name: name, reason: "expected a number from \(range.lowerBound) to \(range.upperBound), got \"\(text.prefix(64))\"")
        }
        return parsed
    }

    public func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let text = string(name)?.lowercased() else { return value }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw SettingsError.invalid(name: name, reason: "expected true or false, got \"\(text)\"")
        }
    }

    /// Comma-separated values with blanks removed.
    public func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
