public import Hummingbird
import HTTPTypes
import RelayRuntime
import Tracing

/// A server span per request at the public port, in place of Hummingbird's `TracingMiddleware`,
/// which continues any caller's `traceparent` and exports the query string whole:
/// - every request starts a new trace: a caller's `traceparent` (when well formed) becomes a
///   span link, never the parent, so a stranger can neither choose the trace ID that partners
///   receive in their callbacks nor force the sampling of a flood (the relay's sampler decides);
/// - `url.query` keeps the parameters' names with every value `REDACTED` (`?username=`,
///   `?unique_user_id=`, `?customer_item_id=` are searches for people);
/// - `/healthz`, `/readyz` and `/metrics` get no span (probes and scrapes, every few seconds).
public struct PublicTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Paths probed or scraped, which make no span.
    public static var untracedPaths: Set<String> { ["/healthz", "/readyz", "/metrics"] }

    static var traceParentHeader: HTTPField.Name { HTTPField.Name("traceparent")! }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.untracedPaths.contains(request.uri.path) else { return try await next(request, context) }
        let span = startSpan("HTTP \(request.method.rawValue)", context: .topLevel, ofKind: .server)
        if let caller = request.headers[Self.traceParentHeader].flatMap(Self.wellFormedTraceParent) {
            span.addLink(SpanLink(context: TraceParent.context(caller), attributes: [:]))
        }
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["url.path"] = request.uri.path
            attributes["url.query"] = Self.redactedQuery(request.uri.query)
            attributes["http.request.body.size"] = request.headers[.contentLength].flatMap { Int($0) }
        }
        let ending = EndOnceSpan(span)
        do {
            var response = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            Self.record(route: context.endpointPath, status: Int(response.status.code), on: span)
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { ending.end() }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            Self.record(route: context.endpointPath, status: status, on: span)
            if status >= 500 { span.recordError(error) }
            ending.end()
            throw error
        }
    }

    static func record(route: String?, status: Int, on span: any Span) {
        if let route { span.operationName = route }
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        span.updateAttributes { attributes in
            attributes["http.route"] = route
            attributes["http.response.status_code"] = status
        }
    }

    /// The query's parameter names, each value replaced: `username=REDACTED&page=REDACTED`. A
    /// name that is not short and plain is itself shown as `REDACTED`; nil without a query.
    static func redactedQuery(_ query: String?) -> String? {
        guard let query, !query.isEmpty else { return nil }
        return query.split(separator: "&", omittingEmptySubsequences: true).prefix(32).map { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let plain = (1...64).contains(name.utf8.count)
                && name.utf8.allSatisfy { $0 < 0x80 && ($0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)) }
            return (plain ? name : "REDACTED") + "=REDACTED"
        }.joined(separator: "&")
    }

    /// A W3C `traceparent` of version 00 (`00-<32 hex>-<16 hex>-<2 hex>`), or nil: anything else
    /// is not passed to the tracer, whose complaint about it would quote the caller's text.
    static func wellFormedTraceParent(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "00", parts[1].utf8.count == 32, parts[2].utf8.count == 16, parts[3].utf8.count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) } })
        else { return nil }
        return text
    }
}
