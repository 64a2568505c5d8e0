/// The headers of every export to the collector (its API key, usually): `OTEL_EXPORTER_OTLP_HEADERS`
/// (`name=value,name=value`, as swift-otel reads it), a secret like every other of the relay's:
/// it may be read from a file named by `OTEL_EXPORTER_OTLP_HEADERS_FILE` (a systemd credential:
/// `%d/otlp-headers`), never both. `OTEL_EXPORTER_OTLP_TRACES_HEADERS`, when set, still wins
/// over it (swift-otel applies it last, as the OpenTelemetry specification says).
public enum CollectorHeaders {
    public static let variable = "OTEL_EXPORTER_OTLP_HEADERS"

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
}
