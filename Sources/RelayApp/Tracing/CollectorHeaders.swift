public import Foundation
public import RelayCore

/// The headers of every export to the collector (its API key, usually): `OTEL_EXPORTER_OTLP_HEADERS`
/// (`name=value,name=value`, as swift-otel reads it) or, like every other secret of the relay,
/// a file named by `OTEL_EXPORTER_OTLP_HEADERS_FILE` (a systemd credential:
/// `%d/otlp-headers`), never both. `OTEL_EXPORTER_OTLP_TRACES_HEADERS`, when set, still wins
/// over either (swift-otel applies it last, as the OpenTelemetry specification says).
public enum CollectorHeaders {
    public static let variable = "OTEL_EXPORTER_OTLP_HEADERS"
    public static let fileVariable = variable + "_FILE"

    /// The headers from the file, to give swift-otel's configuration; nil when no file is named
    /// (swift-otel reads the variable itself). Throws `SettingsError`, never quoting the file.
    public static func fromFile(_ environment: [String: String],
                                readFile: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) })
        throws -> [(String, String)]? {
        guard let path = text(environment[fileVariable]) else { return nil }
        if text(environment[variable]) != nil {
            throw SettingsError.invalid(name: fileVariable, reason: "\(variable) is set too; set one of them")
        }
        let contents: String
        do {
            contents = try readFile(path)
        } catch {
            throw SettingsError.invalid(name: fileVariable, reason: "cannot read \(path)")
        }
        guard let headers = parse(contents.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SettingsError.invalid(name: fileVariable, reason: "the file must hold name=value pairs separated by commas")
        }
        return headers
    }

    /// `name=value,name=value` as swift-otel reads `OTEL_EXPORTER_OTLP_HEADERS` (names and values
    /// trimmed); nil when a pair lacks its name or value.
    static func parse(_ text: String) -> [(String, String)]? {
        var headers: [(String, String)] = []
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = parts[0].trimmingCharacters(in: .whitespacesAndNewlines), value = parts[1].trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, !value.isEmpty else { return nil }
            headers.append((name, value))
        }
        return headers
    }

    /// `config show`'s row when the headers are set: a secret, shown as set and from where.
    public static func shown(_ environment: [String: String]) -> (name: String, value: String, origin: String)? {
        if text(environment[fileVariable]) != nil { return (variable, "(secret, set)", fileVariable) }
        if text(environment[variable]) != nil { return (variable, "(secret, set)", variable) }
        return nil
    }

    private static func text(_ value: String?) -> String? {
        guard let value, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return value.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
