public import RelayModel
public import RelayRuntime

/// The OpenTelemetry variables the relay reads for its traces, under their standard names (the
/// file's key is the name in lower case: `otel_exporter_otlp_endpoint: http://collector:4318`).
/// swift-otel interprets them; any other `OTEL_*` variable of the environment still reaches it.
extension TracingSettings {
    static func otel(_ name: String, takes: String, default value: String? = nil, defaultText: String? = nil, secret: Bool = false,
                     _ summary: String, audience: SettingAudience = .tuning) -> TextSetting {
        TextSetting(name.lowercased(), takes: takes, default: value, defaultText: defaultText, secret: secret, summary,
                    audience: audience, standardName: name)
    }

    public static let endpoint = otel("OTEL_EXPORTER_OTLP_ENDPOINT", takes: "an http(s) URL", defaultText: "none (tracing off)",
        "the collector's OTLP/HTTP endpoint, e.g. `http://collector:4318`; traces are sent only when this (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set",
        audience: .operator(why: "to send traces to your collector: tracing is off until it is set"))
    public static let tracesEndpoint = otel("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", takes: "an http(s) URL", defaultText: "`…_ENDPOINT` + `/v1/traces`",
        "the traces endpoint itself, in full")
    public static let headers = otel(CollectorHeaders.variable, takes: "`name=value` pairs, comma-separated", secret: true,
        "headers of every export (the collector's API key, usually)")
    public static let tracesHeaders = otel("OTEL_EXPORTER_OTLP_TRACES_HEADERS", takes: "`name=value` pairs, comma-separated", secret: true,
        "headers of trace exports, applied after `OTEL_EXPORTER_OTLP_HEADERS`")
    public static let timeout = otel("OTEL_EXPORTER_OTLP_TIMEOUT", takes: "milliseconds", defaultText: "`10000`", "one export's longest wait")
    public static let certificate = otel("OTEL_EXPORTER_OTLP_CERTIFICATE", takes: "a path", defaultText: "system roots",
        "PEM trust roots for a collector with a private CA")
    public static let clientKey = otel("OTEL_EXPORTER_OTLP_CLIENT_KEY", takes: "a path", "the relay's private key, for a collector that asks for a client certificate")
    public static let clientCertificate = otel("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", takes: "a path", "the relay's certificate, with the key above")
    public static let serviceName = otel("OTEL_SERVICE_NAME", takes: "text", defaultText: "`entrupy-relay`", "`service.name` of every span")
    public static let resourceAttributes = otel("OTEL_RESOURCE_ATTRIBUTES", takes: "`key=value` pairs, comma-separated",
        "more attributes of every span's resource, such as `deployment.environment=prod`")
    public static let sampler = otel("OTEL_TRACES_SAMPLER", takes: "`parentbased_always_on`, `traceidratio`, …", defaultText: "`parentbased_always_on`",
        "which traces are kept")
    public static let samplerArgument = otel("OTEL_TRACES_SAMPLER_ARG", takes: "a number from 0 to 1", "the ratio of a `…traceidratio` sampler")
    public static let sdkDisabled = otel("OTEL_SDK_DISABLED", takes: "true or false", defaultText: "`false`", "`true` turns tracing off whatever else is set")
    public static let tracesExporter = otel("OTEL_TRACES_EXPORTER", takes: "`otlp`, `console` or `none`", defaultText: "`otlp`", "`none` turns tracing off")
    public static let batchDelay = otel("OTEL_BSP_SCHEDULE_DELAY", takes: "milliseconds", defaultText: "`5000`", "the longest a finished span waits to be exported")
    public static let batchTimeout = otel("OTEL_BSP_EXPORT_TIMEOUT", takes: "milliseconds", defaultText: "`30000`", "one batch's longest export")
    public static let batchQueue = otel("OTEL_BSP_MAX_QUEUE_SIZE", takes: "a whole number", defaultText: "`2048`", "spans waiting at most; more are dropped")
    public static let batchSize = otel("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", takes: "a whole number", defaultText: "`512`", "spans in one export at most")

    /// Every variable read here, in the reference's order.
    public static let catalog: [Setting] = [
        endpoint, tracesEndpoint, headers, tracesHeaders, timeout, certificate, clientKey, clientCertificate, serviceName,
        resourceAttributes, sampler, samplerArgument, sdkDisabled, tracesExporter, batchDelay, batchTimeout, batchQueue, batchSize,
    ].map(\.setting)
}
