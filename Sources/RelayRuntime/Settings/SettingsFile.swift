import Configuration
import Foundation
import RelayModel
import Yams

/// The optional YAML config file: a mapping of setting keys to values (`port: 8080`, a list
/// as a YAML sequence or comma-separated). Values are read through swift-configuration's YAML
/// snapshot; its keys are listed here too, so a misspelt one can be refused.
struct SettingsFile: Sendable {
    let path: String
    let snapshot: YAMLSnapshot?
    /// Every key, nested ones joined with dots as the snapshot joins them.
    let keys: [String]
    /// Keys given no value (`smtp_password:` or `~`): unset, as a blank variable is.
    let nullKeys: Set<String>

    init(path: String, text: String) throws {
        self.path = path
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw SettingsError.invalid(name: path, reason: "not YAML: \(Self.firstLine(error))")
        }
        guard let node else {
            // An empty file (or only comments) sets nothing.
            (snapshot, keys, nullKeys) = (nil, [], [])
            return
        }
        guard let mapping = node.mapping else {
            throw SettingsError.invalid(name: path, reason: "expected a mapping of settings, such as port: 8080")
        }
        keys = try Self.keys(mapping, prefix: "", path: path)
        nullKeys = Set(mapping.compactMap { key, value in value.null != nil ? key.scalar?.string : nil })
        do {
            let data = Data(text.utf8)
            snapshot = try YAMLSnapshot(data: data.bytes, providerName: path, parsingOptions: .default)
        } catch {
            throw SettingsError.invalid(name: path, reason: Self.firstLine(error))
        }
    }

    func value(_ key: String, secret: Bool, readFile: (String) throws -> String) throws -> SettingValue? {
        let plain = try text(key)
        guard secret, let filePath = try text(key + "_file") else {
            return plain.map { SettingValue(text: $0, origin: "\(key) in \(path)") }
        }
        let origin = "\(key)_file in \(path)"
        if plain != nil { throw SettingsError.invalid(name: origin, reason: "\(key) is set too; set one of them") }
        return SettingValue(text: try SettingsSources.secretFile(filePath, origin: origin, readFile: readFile), origin: origin)
    }

    /// A scalar as its text; a sequence as its items joined with commas.
    private func text(_ key: String) throws -> String? {
        guard let snapshot, !nullKeys.contains(key) else { return nil }
        let configKey = AbsoluteConfigKey([key])
        if let value = try? snapshot.value(forKey: configKey, type: .string).value {
            // Blank is unset, as in the environment: `smtp_password: ""` beside `smtp_password_file` is no conflict.
            if case .string(let text) = value.content { return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text }
        }
        if let value = try? snapshot.value(forKey: configKey, type: .stringArray).value, case .stringArray(let items) = value.content {
            return items.joined(separator: ",")
        }
        if keys.contains(where: { $0.hasPrefix(key + ".") }) || keys.contains(key) {
            throw SettingsError.invalid(name: "\(key) in \(path)", reason: "expected a value or a list")
        }
        return nil
    }

    private static func keys(_ mapping: Node.Mapping, prefix: String, path: String) throws -> [String] {
        try mapping.flatMap { key, value -> [String] in
            guard let name = key.scalar?.string else {
                throw SettingsError.invalid(name: path, reason: "every key must be a name, such as port")
            }
            if let nested = value.mapping { return try keys(nested, prefix: prefix + name + ".", path: path) }
            return [prefix + name]
        }
    }

    private static func firstLine(_ error: any Error) -> String {
        String("\(error)".split(separator: "\n").first ?? "").prefix(200).description
    }
}
