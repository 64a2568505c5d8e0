import ArgumentParser
import EntrupyAPI
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayWorker

struct BackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill", abstract: "Import every authentication the Entrupy search API returns for a date range."
    )

    @Option(help: "Start date, ISO 8601 (2026-11-01 or 2026-11-01T00:00:00Z).")
    var since: String

    @Option(help: "End date, ISO 8601 (default: now).")
    var until: String?

    func run() async throws {
        guard let start = ISODate.parse(since) else { throw ValidationError("--since is not an ISO 8601 date: \(since)") }
        let end = try until.map { text -> Date in
            guard let date = ISODate.parse(text) else { throw ValidationError("--until is not an ISO 8601 date: \(text)") }
            return date
        }
        if let end, end < start { throw ValidationError("--until is before --since") }
        let environment = try CommandEnvironment(receiving: false, reconciling: true)
        let settings = environment.settings, logger = environment.logger
        let summary = try await CommandEnvironment.database(environment) { client in
            let http = EntrupyAPIClient.makeHTTPClient()
            let api = WorkerAssembly.apiClient(settings: settings, http: http, database: client, logger: logger)
            let pipeline = ReconcilePipeline(api: api, store: PostgresReconcileStore(client: client, logger: logger), rules: nil, logger: logger)
            let backfiller = Backfiller(api: api, pipeline: pipeline, categories: settings.worker.syncCategories, logger: logger)
            do {
                let result = try await backfiller.run(since: start, until: end) { progress in
                    if progress.pages % 10 == 0 { logger.info("backfill progress", metadata: ["pages": "\(progress.pages)", "items": "\(progress.items)"]) }
                }
                try await http.shutdown()
                return result
            } catch {
                try? await http.shutdown()
                throw error
            }
        }
        print("backfill done: \(summary.items) items in \(summary.pages) pages; \(summary.changed) changed, \(summary.transitions) transitions recorded")
    }
}
