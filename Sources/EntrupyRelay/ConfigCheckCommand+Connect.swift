import AsyncHTTPClient
import EntrupyAPI
import Foundation
import Logging
import RelayApp
import RelayModel
import RelayDatabase
import RelayNotify
import RelayRuntime
import RelayStore

/// The `--connect` checks: each reaches its server once, within a bounded time, and reports
/// what refused it (a password, a certificate, a token) as the server or TLS said it.
extension ConfigCheckCommand {
    static let connectLimit: Duration = .seconds(15)

    func checkDatabase(_ settings: RelaySettings, _ report: inout CheckReport) async {
        let url = settings.database.url
        var logger = Logger(label: "entrupy-relay.config-check")
        logger.logLevel = .critical
        do {
            let answer = try await withDeadline(Self.connectLimit) { [logger] in try await DatabaseProbe.check(url, logger: logger) }
            let catalog = try MigrationCatalog.forSettings(directory: settings.database.migrationsDirectory)
            let status = try await withDeadline(Self.connectLimit) { [logger] in
                try await DatabaseClientFactory.withClient(url, logger: logger) { client in
                    MigrationStatus(catalog: catalog, applied: try await Migrator(client: client, logger: logger).applied())
                }
            }
            let schema = status.refusal.map { "schema refused: \($0)" }
                ?? (status.pending.isEmpty ? "schema current" : "\(status.pending.count) migrations pending (run migrate)")
            let detail = "\(url): PostgreSQL \(answer.serverVersion) as \(answer.user), \(answer.encrypted ? "TLS (sslmode=\(url.tlsMode.rawValue))" : "not encrypted"), \(schema)"
            if status.refusal == nil { report.pass("database", detail) } else { report.fail("database", detail) }
        } catch {
            report.fail("database", "\(url): \(PostgresErrorText.describe(error))" + Self.tlsHint(error, url))
        }
    }

    /// What a TLS refusal means for the URL's settings, in an operator's words.
    static func tlsHint(_ error: any Error, _ url: DatabaseURL) -> String {
        let text = String(reflecting: error)
        if text.contains("failedToValidateHostname") {
            return " (the server's certificate is not for \(url.host): connect by the name it was issued for, or use sslmode=verify-ca)"
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return url.rootCertificateFile == nil
                ? " (the server's certificate does not chain to the system's CAs: name its CA with sslrootcert)"
                : " (the server's certificate does not chain to sslrootcert)"
        }
        return ""
    }

    func checkSMTP(_ client: SMTPClient, _ report: inout CheckReport) async {
        let target = "\(client.configuration.host):\(client.configuration.port)"
        do {
            try await withDeadline(Self.connectLimit) { try await client.check() }
            report.pass("smtp", "\(target): greeted, \(client.configuration.tls == .none ? "no TLS" : "TLS verified")\(client.configuration.username == nil ? "" : ", signed in")")
        } catch {
            report.fail("smtp", "\(target): \(error)")
        }
        await client.shutdown()
    }

    func checkEntrupy(_ settings: RelaySettings, _ report: inout CheckReport) async {
        guard let token = settings.entrupy.token else {
            report.pass("entrupy", "no API token set: not reached (\(command.rawValue) does not need it)")
            return
        }
        var logger = Logger(label: "entrupy-relay.config-check")
        logger.logLevel = .critical
        let http = EntrupyAPIClient.makeHTTPClient()
        let api = EntrupyAPIClient(
            configuration: EntrupyAPIConfiguration(baseURL: settings.entrupy.url, token: token, routes: settings.entrupy.routes, requestTimeout: .seconds(settings.entrupy.timeoutSeconds)),
            http: http, budget: RateBudget(ratePerSecond: 1), logger: logger)
        do {
            try await withDeadline(Self.connectLimit) { try await api.health() }
            report.pass("entrupy", "\(settings.entrupy.url) (v\(settings.entrupy.routes.version.rawValue)): answers, and accepts the token")
        } catch {
            report.fail("entrupy", "\(settings.entrupy.url): \(error)")
        }
        try? await http.shutdown()
    }
}
