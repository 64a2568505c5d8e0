public import Tracing

/// The W3C `traceparent` of a trace context, as a job carries it through PostgreSQL
/// (`jobs.trace_parent`) so that the run continues the trace of what enqueued it (a webhook's
/// receipt, a reconcile). Nil everywhere while tracing is off (the no-op instrument injects nothing).
public enum TraceParent {
    /// The current task's trace context (`ServiceContext.current`), as text; nil without one.
    public static func current() -> String? {
        guard let context = ServiceContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"]
    }

    /// A context continuing `text`'s trace; the top-level context when it is nil or unreadable.
    public static func context(_ text: String?) -> ServiceContext {
        var context = ServiceContext.topLevel
        guard let text, !text.isEmpty, text.utf8.count <= 128 else { return context }
        InstrumentationSystem.instrument.extract(["traceparent": text], into: &context, using: DictionaryExtractor())
        return context
    }

    struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key] = value
        }
    }

    struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? {
            carrier[key]
        }
    }
}
