import Foundation
import RelayApp
import RelayModel
import RelayRuntime
import Testing

/// The `OTEL_*` settings come through the relay's own sources: the environment, the YAML file
/// (keys in lower case) and, for the collector's headers, a credential file.
@Suite("OpenTelemetry's settings through the relay's sources")
struct TracingSettingsTests {
    let required = ["DATABASE_URL": "postgres://relay@db.example/relay", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "webhook-secret-0123456789"]

    func tracing(_ env: [String: String], files: [String: String] = [:]) throws -> TracingSettings {
        let sources = try SettingsSources(environment: required.merging(env) { $1 }) { path in
            guard let text = files[path] else { throw CocoaError(.fileNoSuchFile) }
            return text
        }
        try sources.checkNames(RelaySettings.catalog)
        return try RelaySettings(reader: sources.reader(), receiving: true).tracing
    }

    @Test func theConfigFileTurnsTracingOnAndTheEnvironmentWins() throws {
        #expect(try !tracing([:]).wanted)
        let yaml = "otel_exporter_otlp_endpoint: http://collector:4318\notel_service_name: from-file\notel_bsp_schedule_delay: 100\n"
        let env = [SettingsSources.configFileVariable: "/c.yaml", "OTEL_SERVICE_NAME": "from-env", "OTEL_PROPAGATORS": "tracecontext"]
        let settings = try tracing(env, files: ["/c.yaml": yaml])
        #expect(settings.wanted)
        #expect(settings.environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://collector:4318")
        #expect(settings.environment["OTEL_BSP_SCHEDULE_DELAY"] == "100")
        #expect(settings.environment["OTEL_SERVICE_NAME"] == "from-env", "the environment wins")
        #expect(settings.environment["OTEL_PROPAGATORS"] == "tracecontext", "a variable not in the catalog still reaches swift-otel")
        #expect(try !tracing(env.merging(["OTEL_SDK_DISABLED": "true"]) { $1 }, files: ["/c.yaml": yaml]).wanted)
        // A misspelt key of the file is caught like any other; OTEL_ variables of the environment are not the relay's to check.
        #expect(throws: SettingsError.unknown(name: "otel_exporter_otlp_endpont in /c.yaml", nearest: "otel_exporter_otlp_endpoint")) {
            try tracing([SettingsSources.configFileVariable: "/c.yaml"], files: ["/c.yaml": "otel_exporter_otlp_endpont: http://c:4318\n"])
        }
        #expect(try !tracing(["OTEL_METRICS_EXPORTER": "none"]).wanted)
    }

    @Test func theCollectorHeadersAreASecretThatMayComeFromAFile() throws {
        let fromFile = try tracing(["OTEL_EXPORTER_OTLP_HEADERS_FILE": "/run/otlp"], files: ["/run/otlp": "x-key=abc\n"])
        #expect(fromFile.environment["OTEL_EXPORTER_OTLP_HEADERS"] == "x-key=abc")
        #expect(fromFile.environment["OTEL_EXPORTER_OTLP_HEADERS_FILE"] == nil)
        let yaml = "otel_exporter_otlp_headers_file: /run/otlp\n"
        let fromKey = try tracing([SettingsSources.configFileVariable: "/c.yaml"], files: ["/c.yaml": yaml, "/run/otlp": "x-key=def"])
        #expect(fromKey.environment["OTEL_EXPORTER_OTLP_HEADERS"] == "x-key=def")
        #expect(RelaySettings.catalog.first { $0.environmentName == "OTEL_EXPORTER_OTLP_HEADERS" }?.isSecret == true)
        #expect(throws: SettingsError.invalid(name: "OTEL_EXPORTER_OTLP_HEADERS_FILE", reason: "OTEL_EXPORTER_OTLP_HEADERS is set too; set one of them")) {
            try tracing(["OTEL_EXPORTER_OTLP_HEADERS_FILE": "/run/otlp", "OTEL_EXPORTER_OTLP_HEADERS": "x-key=abc"], files: ["/run/otlp": "x-key=abc"])
        }
        #expect(throws: SettingsError.invalid(name: "OTEL_EXPORTER_OTLP_HEADERS_FILE", reason: "the file must hold name=value pairs separated by commas")) {
            try tracing(["OTEL_EXPORTER_OTLP_HEADERS_FILE": "/run/otlp"], files: ["/run/otlp": "just-a-key"])
        }
    }

    /// `OTEL_SERVICE_NAME` set is no leftover of before 0.1.0 (its name never had the prefix).
    @Test func standardNamesAreNotReportedAsUnprefixedLeftovers() throws {
        let sources = try SettingsSources(environment: required.merging(["OTEL_SERVICE_NAME": "relay"]) { $1 }) { _ in "" }
        #expect(sources.unprefixedNames(RelaySettings.catalog).isEmpty)
    }
}
