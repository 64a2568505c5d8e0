import Foundation
import Testing
@testable import RelayRuntime

/// The metric catalog is every metric the relay emits, each a name Prometheus's linter accepts,
/// and docs/monitoring.md's table is made from it.
@Suite("The metric catalog")
struct MetricCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sources() throws -> [(path: String, text: String)] {
        let folder = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return try files.filter { $0.pathExtension == "swift" }.map {
            (String($0.path.dropFirst(folder.path.count + 1)), try String(contentsOf: $0, encoding: .utf8))
        }
    }

    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { String(text[Range(match.range(at: $0), in: text)!]) }
        }
    }

    @Test func namesTypesAndLabelsAreOnesPrometheusAccepts() {
        #expect(Set(RelayMetric.catalog.map(\.name)).count == RelayMetric.catalog.count, "a name is in the catalog twice")
        for metric in RelayMetric.catalog {
            #expect(metric.name.wholeMatch(of: /[a-z][a-z0-9_]*/) != nil, "\(metric.name)")
            #expect(metric.name.hasSuffix("_total") == (metric.kind == .counter), "\(metric.name): only a counter ends in _total")
            for suffix in ["_bucket", "_sum", "_count"] { #expect(!metric.name.hasSuffix(suffix), "\(metric.name)") }
            for label in metric.labels { #expect(label.wholeMatch(of: /[a-z][a-z0-9_]*/) != nil && label != "le", "\(metric.name): \(label)") }
            #expect(!metric.meaning.isEmpty && !metric.meaning.contains("\n") && !metric.meaning.contains("|"), "\(metric.name)")
            #expect(RelayMetric.named(metric.name) == metric)
        }
    }

    /// Handles are made only by `MetricHandles`, from a catalog entry: nothing else names a metric.
    @Test func nothingButMetricHandlesMakesAMetric() throws {
        for (path, text) in try Self.sources() where path != "RelayRuntime/MetricHandles.swift" {
            let made = Self.matches(#"(?<![A-Za-z_])(Counter|FloatingPointCounter|Gauge|Recorder|Meter|Timer)\(label:"#, in: text)
            #expect(made.isEmpty, "\(path) makes a metric without the catalog: use MetricHandles")
        }
    }

    /// Every relay entry is emitted somewhere, and every entry is in `catalog`.
    @Test func everyRelayEntryIsEmittedAndListed() throws {
        let sources = try Self.sources()
        let catalogFiles = sources.filter { $0.path.hasPrefix("RelayRuntime/RelayMetric+Catalog") }
        let entries = catalogFiles.flatMap { Self.matches(#"static let (\w+) = RelayMetric\("([a-z_]+)""#, in: $0.text) }
        #expect(entries.count == RelayMetric.catalog.count, "an entry is missing from RelayMetric.catalog")
        let emitters = sources.filter { !$0.path.hasPrefix("RelayRuntime/RelayMetric") }
        for entry in entries where entry[2].hasPrefix("relay_") {
            let used = emitters.contains { !Self.matches(#"MetricHandles\.\w+\(\.\#(entry[1])\b"#, in: $0.text).isEmpty }
            #expect(used, "\(entry[2]) (.\(entry[1])) is in the catalog but emitted nowhere")
        }
    }

    /// docs/monitoring.md's metric table is `metrics reference`'s output, between its markers.
    @Test func theMonitoringPageTableIsTheCatalog() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/monitoring.md"), encoding: .utf8)
        let begin = "<!-- metrics reference: begin (entrupy-relay metrics reference) -->\n", end = "<!-- metrics reference: end -->"
        guard let start = page.range(of: begin), let stop = page.range(of: end, range: start.upperBound..<page.endIndex) else {
            Issue.record("docs/monitoring.md has no metrics reference markers")
            return
        }
        #expect(String(page[start.upperBound..<stop.lowerBound]) == RelayMetric.markdown(),
                "regenerate it: entrupy-relay metrics reference")
        for metric in RelayMetric.catalog { #expect(RelayMetric.markdown().contains("| `\(metric.name)` |")) }
    }
}
