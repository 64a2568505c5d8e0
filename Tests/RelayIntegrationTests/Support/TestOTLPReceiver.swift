import Foundation
import RelayModel

/// An OTLP/HTTP receiver for traces (deploy/test-servers/otlp_receiver.py): decodes what the
/// relay exports with opentelemetry-proto and keeps one line per span.
struct TestOTLPReceiver: Sendable {
    struct Span: Sendable {
        let traceID: String
        let spanID: String
        let parentID: String
        let name: String
        let kind: String
        let start: UInt64
        let end: UInt64
        let service: String?
        let attributes: JSONValue
        /// The spans it links to: (trace ID, span ID).
        let links: [(traceID: String, spanID: String)]
        /// The headers of the export that carried it, names in lower case.
        let exportHeaders: JSONValue
    }

    let port: Int
    let out: URL

    var endpoint: String { "http://127.0.0.1:\(port)" }

    static func with<T: Sendable>(_ body: @escaping @Sendable (TestOTLPReceiver) async throws -> T) async throws -> T {
        let port = try await freePort()
        let folder = try TestServerProcess.temporaryDirectory("otlp")
        let out = folder.appendingPathComponent("spans.jsonl")
        return try await TestServerProcess.run("otlp_receiver.py", ["--port", String(port), "--out", out.path], folder: folder) {
            try await body(TestOTLPReceiver(port: port, out: out))
        }
    }

    func spans() -> [Span] {
        guard let text = try? String(contentsOf: out, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let json = JSONValue(jsonText: String(line)) else { return nil }
            return Span(traceID: json["trace_id"]?.stringValue ?? "", spanID: json["span_id"]?.stringValue ?? "",
                        parentID: json["parent_span_id"]?.stringValue ?? "", name: json["name"]?.stringValue ?? "",
                        kind: json["kind"]?.stringValue ?? "", start: UInt64(json["start_ns"]?.doubleValue ?? 0),
                        end: UInt64(json["end_ns"]?.doubleValue ?? 0), service: json["service"]?.stringValue,
                        attributes: json["attributes"] ?? .null,
                        links: (json["links"]?.arrayValue ?? []).map { ($0["trace_id"]?.stringValue ?? "", $0["span_id"]?.stringValue ?? "") },
                        exportHeaders: json["export_headers"] ?? .null)
        }
    }
}
