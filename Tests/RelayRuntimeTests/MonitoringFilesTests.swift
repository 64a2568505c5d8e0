import Foundation
import Testing
@testable import RelayRuntime

/// The shipped monitoring files name only what the relay emits: every metric in an alert's
/// expression or a dashboard query is in the catalog, with labels the metric has; every alert
/// carries what an on-call reader needs, and its runbook link lands on a section of
/// docs/monitoring.md. (The rules' behaviour is `promtool test rules`, run by local.sh test; a
/// real Prometheus evaluating them is PrometheusAlertTests.)
@Suite("The shipped alerts and dashboard")
struct MonitoringFilesTests {
    static let root = MetricCatalogTests.root

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Each rule of alerts.yml as its lines, from its `- alert:` line to the next.
    static func alerts() throws -> [(name: String, lines: [String])] {
        var rules: [(name: String, lines: [String])] = []
        for line in try text("deploy/prometheus/alerts.yml").split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- alert: ") {
                rules.append((String(trimmed.dropFirst("- alert: ".count)), []))
            } else if !rules.isEmpty, !trimmed.hasPrefix("#"), !trimmed.hasPrefix("- name: ") {
                rules[rules.count - 1].lines.append(line)
            }
        }
        return rules
    }

    /// The text of each `expr` in alerts.yml (a one-line value or a `|` block).
    static func alertExpressions() throws -> [(alert: String, expr: String)] {
        try alerts().map { rule in
            var expr: [String] = [], inBlock = false
            for line in rule.lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("expr:") {
                    let value = trimmed.dropFirst("expr:".count).trimmingCharacters(in: .whitespaces)
                    inBlock = value == "|"
                    if !inBlock { expr.append(value) }
                } else if inBlock, line.hasPrefix("          ") {
                    expr.append(trimmed)
                } else {
                    inBlock = false
                }
            }
            return (rule.name, expr.joined(separator: "\n"))
        }
    }

    /// Every `expr` of the dashboard's panels.
    static func dashboardExpressions() throws -> [String] {
        let data = try Data(contentsOf: root.appendingPathComponent("deploy/grafana/entrupy-relay.json"))
        var found: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let expr = object["expr"] as? String { found.append(expr) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: data))
        return found
    }

    /// The relay's metric families an expression names (a histogram's `_bucket`, `_sum` and
    /// `_count` are its own), with the label names each selector of it matches on.
    static func metrics(in expr: String) -> [(name: String, labels: [String])] {
        MetricCatalogTests.matches(#"\b((?:relay|hb|http_server)_[a-z0-9_]*)(\{[^}]*\}|)"#, in: expr).map { match in
            var name = match[1]
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
                let base = String(name.dropLast(suffix.count))
                if RelayMetric.named(base)?.kind.prometheusType == "histogram" { name = base }
            }
            let labels = MetricCatalogTests.matches(#"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)"#, in: match[2]).map { $0[1] }
            return (name, labels)
        }
    }

    static func check(_ expr: String, where place: String) {
        let named = metrics(in: expr)
        #expect(!named.isEmpty, "\(place) names no relay metric: \(expr)")
        for (name, labels) in named {
            guard let metric = RelayMetric.named(name) else {
                Issue.record("\(place) names \(name), which is not in RelayMetric.catalog (entrupy-relay metrics reference)")
                continue
            }
            let allowed = Set(metric.labels + ["job", "instance"] + (metric.kind.prometheusType == "histogram" ? ["le"] : []))
            for label in labels where !allowed.contains(label) {
                Issue.record("\(place) matches \(name) on \(label), a label it does not have (\(metric.labels))")
            }
        }
    }

    @Test func alertExpressionsNameOnlyCatalogMetrics() throws {
        let expressions = try Self.alertExpressions()
        #expect(expressions.count >= 13, "the README's thirteen conditions")
        for (alert, expr) in expressions {
            // Prometheus's own series: whether the scrape (up) and the blackbox probe of /readyz work.
            if expr.hasPrefix("up{") || expr.hasPrefix("probe_success{") { continue }
            Self.check(expr, where: "alert \(alert)")
        }
    }

    @Test func dashboardQueriesNameOnlyCatalogMetrics() throws {
        let expressions = try Self.dashboardExpressions()
        #expect(expressions.count >= 20)
        for expr in expressions { Self.check(expr, where: "the dashboard") }
    }

    /// A name the catalog lacks, or a label a metric lacks, is caught: the check is not vacuous.
    @Test func aMisspelledMetricOrLabelIsNamed() {
        #expect(Self.metrics(in: #"sum(rate(relay_webhook_request_total{outcome="x"}[5m]))"#).map(\.name) == ["relay_webhook_request_total"])
        #expect(RelayMetric.named("relay_webhook_request_total") == nil)
        let bucket = Self.metrics(in: #"histogram_quantile(0.9, rate(relay_reconcile_latency_seconds_bucket{le="1", route="x"}[5m]))"#)
        #expect(bucket.map(\.name) == ["relay_reconcile_latency_seconds"] && bucket.first?.labels == ["le", "route"])
        #expect(!(RelayMetric.named("relay_reconcile_latency_seconds")?.labels.contains("route") ?? true))
    }

    /// Each alert has a threshold, a duration, a severity, a summary and a runbook section that exists.
    @Test func everyAlertHasADurationSeveritySummaryAndARunbookThatExists() throws {
        let page = try Self.text("docs/monitoring.md")
        let anchors = Set(page.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
            String(heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                .replacingOccurrences(of: " ", with: "-"))
        })
        let alerts = try Self.alerts()
        #expect(Set(alerts.map(\.name)).count == alerts.count, "an alert name is used twice")
        for (name, lines) in alerts {
            let body = lines.joined(separator: "\n")
            #expect(body.contains(/\n\s+for: [0-9]+[smh]\n/), "\(name): no for: duration")
            #expect(body.contains(/severity: (critical|warning)\n/), "\(name): no severity")
            #expect(body.contains(/summary: "[^"]+"/), "\(name): no summary")
            #expect(body.contains(/expr: .*[<>=]|\n\s+[^\n]*[<>]=? *[0-9]/), "\(name): no threshold")
            let runbook = body.firstMatch(of: /runbook_url: docs\/monitoring\.md#([a-z0-9-]+)/)?.1
            #expect(runbook.map { String($0) } == name.lowercased(), "\(name): its runbook_url is docs/monitoring.md#\(name.lowercased())")
            #expect(runbook.map { anchors.contains(String($0)) } == true, "\(name): docs/monitoring.md has no section \(name)")
        }
    }

    /// promtool's unit tests give every alert a case where it fires and one where it stays quiet.
    @Test func everyAlertHasAFiringAndAQuietUnitTest() throws {
        let tests = try Self.text("deploy/prometheus/alerts.test.yml")
        var firing: Set<String> = [], quiet: Set<String> = []
        for block in tests.components(separatedBy: "alertname: ").dropFirst() {
            let name = String(block.prefix { !$0.isWhitespace })
            let rest = block.drop { !$0.isNewline }.trimmingCharacters(in: .whitespacesAndNewlines)
            if rest.hasPrefix("exp_alerts: []") { quiet.insert(name) } else if rest.hasPrefix("exp_alerts:") { firing.insert(name) }
        }
        for (name, _) in try Self.alerts() {
            #expect(firing.contains(name), "\(name) has no unit test where it fires")
            #expect(quiet.contains(name), "\(name) has no unit test where it stays quiet")
        }
    }
}
