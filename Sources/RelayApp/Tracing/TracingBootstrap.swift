public import Logging
import OTel
import RelayModel
public import ServiceLifecycle

/// OpenTelemetry tracing through swift-otel (OTLP over HTTP only: the gRPC trait is off),
/// off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set,
/// configured by the standard `OTEL_*` settings (service name, sampler, headers, timeouts,
/// batching) as `TracingSettings` reads them: from the environment or the config file, the
/// collector's headers perhaps from a credential file. Only traces: metrics stay on
/// `/metrics`, logs on stderr.
public enum TracingBootstrap {
    /// Makes the tracer the process's (`InstrumentationSystem`) and returns the service that
    /// exports its spans (run it first in the service group, so it stops last and flushes); nil
    /// when tracing is off. Call it before any HTTP client is made: a client takes the tracer
    /// in force when it is made. Throws `TracingSetupError` for a setting swift-otel refuses.
    public static func bootstrap(_ settings: TracingSettings, logger: Logger) throws -> (any Service)? {
        guard settings.wanted else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "entrupy-relay"
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        // swift-otel's logger never prints a value (an override's, a refused carrier's), at the relay's level.
        configuration.diagnosticLogger = .custom(Logger(label: logger.label) { _ in OTelDiagnosticLogHandler(wrapping: logger.handler) })
        do {
            // Traces only, so this makes the tracer the process's and returns its exporter's
            // service. OTEL_SDK_DISABLED stays out: `wanted` has read it, and swift-otel would
            // apply it to logs and metrics too, where `false` (or empty) turns them on, to be
            // bootstrapped over the relay's own (swift-log and swift-metrics allow one bootstrap).
            let service = try OTel.bootstrap(configuration: configuration,
                                             environment: settings.environment.filter { $0.key != "OTEL_SDK_DISABLED" })
            logger.info("tracing on", metadata: ["endpoint": "\(MaskedURL.mask(settings.endpoint))"])
            return service
        } catch {
            throw TracingSetupError(reason: "\(error)")
        }
    }
}

/// swift-otel refused the `OTEL_*` settings (a protocol this build lacks, such as grpc, or a
/// malformed value).
public struct TracingSetupError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "OpenTelemetry: \(reason) (check the OTEL_* variables; this build exports OTLP over HTTP only)" }
}
