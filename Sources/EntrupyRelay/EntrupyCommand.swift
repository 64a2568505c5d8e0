import ArgumentParser
import EntrupyAPI
import Foundation
import Logging
import RelayModel
import RelayRuntime

/// `entrupy check`: the first-hour doctor (`EntrupyDoctor`), with the webhook secrets'
/// fingerprints, so an operator can compare them with what Entrupy was given.
struct EntrupyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrupy", abstract: "Check Entrupy against what the relay assumes of it.", subcommands: [Check.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Try, read-only, each assumption the relay makes of Entrupy's API with this token and settings; "
                + "one line each (ok, differs, skipped); exit 1 when one differs.")

        @Option(help: "A customer item ID the organisation submitted, to try the lookup with.")
        var customerItemID: String?

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false, reconciling: true)
            let settings = environment.settings
            var logger = Logger(label: "entrupy-relay.entrupy-check")
            logger.logLevel = .critical
            let http = EntrupyAPIClient.makeHTTPClient()
            func client(_ routes: EntrupyAPIRoutes) -> EntrupyAPIClient {
                EntrupyAPIClient(configuration: EntrupyAPIConfiguration(baseURL: settings.entrupy.url, token: settings.entrupy.token ?? "", routes: routes,
                                                                         requestTimeout: .seconds(settings.entrupy.timeoutSeconds)),
                                 http: http, budget: RateBudget(ratePerSecond: 2), logger: logger)
            }
            let routes = settings.entrupy.routes
            let otherVersion: EntrupyAPIRoutes.Version = routes.version == .v2 ? .v1_4 : .v2
            let doctor = EntrupyDoctor(api: client(routes), other: client(.defaults(for: otherVersion)))
            print("Entrupy at \(settings.entrupy.url), v\(routes.version.rawValue)")
            var findings = await doctor.run(customerItemID: customerItemID, categories: SearchQuery.categoryFilter(extra: settings.worker.syncCategories),
                                            lookback: .seconds(settings.worker.syncLookbackDays * 86_400))
            try? await http.shutdown()
            findings.append(Self.secrets(settings.receiver.entrupyWebhookSecrets.map(\.fingerprint), standard: settings.receiver.standardWebhookSecrets.count))
            for finding in findings { print(TerminalText.printable(finding.line)) }
            if findings.contains(where: { $0.verdict == .differs }) { throw ExitCode(1) }
        }

        /// The secrets' fingerprints (`key_` and the first 16 hex digits of their SHA-256): never the secrets.
        static func secrets(_ prints: [String], standard: Int) -> EntrupyFinding {
            guard !prints.isEmpty || standard > 0 else {
                return EntrupyFinding("webhook secrets", .differs, "none set: serve refuses to start; set ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS")
            }
            return EntrupyFinding("webhook secrets", .ok, "\(prints.count) Entrupy secret(s): \(prints.joined(separator: ", "))"
                + (standard > 0 ? ", and \(standard) Standard Webhooks secret(s)" : "")
                + "; `printf %s SECRET | sha256sum` gives the digits after key_")
        }
    }
}
