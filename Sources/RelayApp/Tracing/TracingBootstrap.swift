public import Foundation
public import Logging
import OTel
public import ServiceLifecycle
import Tracing

/// OpenTelemetry tracing through swift-otel (OTLP over HTTP only: the gRPC trait is off),
/// off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set,
/// configured by the standard `OTEL_*` variables (service name, sampler, headers, timeouts,
/// batching), and the collector's headers may be a credential file (`CollectorHeaders`).
/// Only traces: metrics stay on `/metrics`, logs on stderr.
public enum TracingBootstrap {
    /// Whether the environment asks for traces.
    public static func wanted(_ environment: [String: String]) -> Bool {
        guard environment["OTEL_SDK_DISABLED"]?.lowercased() != "true", environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none" else {
            return false
        }
        return !(environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? "").isEmpty
    }

    /// Makes the tracer the process's (`InstrumentationSystem`) and returns the service that
    /// exports its spans (run it first in the service group, so it stops last and flushes); nil
    /// when tracing is off. Call it before any HTTP client is made: a client takes the tracer
    /// in force when it is made. Throws `TracingSetupError` for a setting swift-otel refuses,
    /// `SettingsError` for an `OTEL_EXPORTER_OTLP_HEADERS_FILE` that cannot be read.
    public static func bootstrap(environment: [String: String] = ProcessInfo.processInfo.environment,
                                 logger: Logger) throws -> (any Service)? {
        guard wanted(environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "entrupy-relay"
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        // swift-otel's logger never prints a value (an override's, a refused carrier's), at the relay's level.
        configuration.diagnosticLogger = .custom(Logger(label: logger.label) { _ in OTelDiagnosticLogHandler(wrapping: logger.handler) })
        if let headers = try CollectorHeaders.fromFile(environment) { configuration.traces.otlpExporter.headers = headers }
        do {
            let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
            InstrumentationSystem.bootstrap(tracer)
            logger.info("tracing on", metadata: ["endpoint": "\(environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? "")"])
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
