import Logging

/// swift-otel's diagnostic logger, which never prints a value it was not made for: swift-otel
/// logs each `OTEL_*` override with the variable's value (`OTEL_EXPORTER_OTLP_HEADERS` holds a
/// collector's API key) and a refused `traceparent` with the request's headers. Here only the
/// metadata keys known to carry counts and names keep their values; every other value is
/// `<redacted>`. The level is the relay's (`ENTRUPY_RELAY_LOG_LEVEL`): swift-otel's own setting
/// (info, or `OTEL_LOG_LEVEL`) is ignored, and its info lines ("Configuration updated from
/// environment", three a variable) are debug here: the relay logs "tracing on" itself.
struct OTelDiagnosticLogHandler: LogHandler {
    /// swift-otel's metadata keys whose values are counts, names of variables, or hints.
    static let keptKeys: Set<String> = [
        "component", "environment_key", "hint", "buffer_size", "count", "interval", "attempts", "max_attempts",
        "status_code", "batch_id", "dropped_count",
    ]
    static let redacted: Logger.Metadata.Value = "<redacted>"

    var wrapped: any LogHandler
    private var own: Logger.Metadata = [:]

    init(wrapping handler: any LogHandler) {
        wrapped = handler
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set {}
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { nil }
        set {}
    }

    var metadata: Logger.Metadata {
        get { own }
        set { own = Self.kept(newValue) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { own[key] }
        set { own[key] = newValue.map { Self.keptKeys.contains(key) ? $0 : Self.redacted } }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level == .info { event.level = .debug }
        guard event.level >= wrapped.logLevel else { return }
        event.metadata = own.merging(Self.kept(event.metadata ?? [:])) { _, new in new }
        wrapped.log(event: event)
    }

    static func kept(_ metadata: Logger.Metadata) -> Logger.Metadata {
        Dictionary(uniqueKeysWithValues: metadata.map { key, value in (key, keptKeys.contains(key) ? value : redacted) })
    }
}
