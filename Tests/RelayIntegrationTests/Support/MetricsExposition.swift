/// A `/metrics` text read back: each family's `# TYPE` and `# HELP`, and the families that have samples.
struct MetricsExposition {
    private(set) var types: [String: String] = [:]
    private(set) var helps: [String: String] = [:]
    private(set) var sampled: Set<String> = []

    init(_ text: String) {
        var samples: Set<String> = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") || line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                let value = parts.count > 1 ? String(parts[1]) : ""
                if line.hasPrefix("# TYPE ") { types[String(parts[0])] = value } else { helps[String(parts[0])] = value }
            } else if !line.hasPrefix("#") {
                samples.insert(String(line.prefix { $0 != "{" && $0 != " " }))
            }
        }
        sampled = Set(samples.map(family))
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own.
    private func family(_ sample: String) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
            let base = String(sample.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return sample
    }
}
