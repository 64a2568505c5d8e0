extension RelayMetric {
    /// The catalog as docs/monitoring.md's Markdown table (`entrupy-relay metrics reference`).
    public static func markdown() -> String {
        var text = "| metric | type | labels | meaning |\n| --- | --- | --- | --- |\n"
        for metric in catalog {
            let labels = metric.labels.isEmpty ? "" : metric.labels.map { "`\($0)`" }.joined(separator: ", ")
            text += "| `\(metric.name)` | \(metric.kind.prometheusType) | \(labels) | \(metric.meaning) |\n"
        }
        return text
    }
}
