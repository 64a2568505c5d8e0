import ArgumentParser
import EntrupyAPI
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayWorker

/// `entrupy-relay sync status | run`: the re-verification by search that heals lost webhooks.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Show or run the re-verification of recent items through the Entrupy search API.",
        subcommands: [Status.self, Run.self]
    )

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The last complete pass (when, its age, items checked, changes found) and the one under way.")

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let status = try await CommandEnvironment.database(environment) { client in
                try await PostgresSyncStore(client: client, logger: logger).status()
            }
            print(json ? try OutputFormat.json(SyncStatusJSON(status)) : Self.text(status))
        }

        static func text(_ status: SyncStatus) -> String {
            let formatter = ISO8601DateFormatter()
            var lines: [String] = []
            if let finished = status.lastFinishedAt {
                let age = status.lastAgeSeconds.map { " (\(Int($0)) s ago)" } ?? ""
                lines.append("last complete pass: finished \(formatter.string(from: finished))\(age), "
                    + "\(status.lastItemsChecked ?? 0) items checked, \(status.lastChangesFound ?? 0) changes found")
            } else {
                lines.append("last complete pass: none yet")
            }
            if let current = status.current {
                lines.append("pass under way: \(current.tier ?? "all") started \(formatter.string(from: current.startedAt)), window \(formatter.string(from: current.windowStart)) "
                    + "to \(formatter.string(from: current.windowEnd)), \(current.pages) pages, \(current.itemsChecked) items checked, "
                    + "\(current.changesFound) changes found")
            }
            if !status.tiersCompleted.isEmpty {
                lines.append("windows last walked whole: " + status.tiersCompleted.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                    .map { "\(TerminalText.printable($0.key)) \(formatter.string(from: $0.value))" }.joined(separator: ", "))
            }
            if let error = status.lastError {
                lines.append("last error: \(TerminalText.printable(error))" + (status.lastErrorAt.map { " at \(formatter.string(from: $0))" } ?? ""))
            }
            return lines.joined(separator: "\n")
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a pass now (or finish the one under way), notifying as the worker would; exits 3 when another replica holds it.")

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false, reconciling: true)
            let settings = environment.settings, logger = environment.logger
            let outcome = try await CommandEnvironment.database(environment) { client in
                let rules = try WorkerAssembly.rulesStore(settings: settings)
                let http = EntrupyAPIClient.makeHTTPClient()
                do {
                    let api = WorkerAssembly.apiClient(settings: settings, http: http, database: client, logger: logger)
                    let pipeline = ReconcilePipeline(api: api, store: PostgresReconcileStore(client: client, logger: logger), rules: rules, logger: logger)
                    let sync = WorkerAssembly.syncService(settings: settings, api: api, pipeline: pipeline, client: client, logger: logger)
                    let outcome = try await sync.syncOnce()
                    try await http.shutdown()
                    return outcome
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
            guard let outcome else {
                print("another replica is running a sync pass; try again later")
                throw ExitCode(3)
            }
            guard outcome.completed else {
                print("no pass due: every window of ENTRUPY_RELAY_SYNC_TIERS was walked within its interval")
                return
            }
            print("sync pass complete: \(outcome.itemsChecked) items checked in \(outcome.pages) pages, \(outcome.changesFound) changed")
        }
    }
}

/// `sync status --json`.
struct SyncStatusJSON: Encodable {
    let lastStartedAt: Date?
    let lastFinishedAt: Date?
    let lastAgeSeconds: Double?
    let lastItemsChecked: Int?
    let lastChangesFound: Int?
    let running: Bool
    let currentPages: Int?
    let currentItemsChecked: Int?
    let currentTier: String?
    let tiersCompleted: [String: Date]
    let lastError: String?

    init(_ status: SyncStatus) {
        lastStartedAt = status.lastStartedAt
        lastFinishedAt = status.lastFinishedAt
        lastAgeSeconds = status.lastAgeSeconds
        lastItemsChecked = status.lastItemsChecked
        lastChangesFound = status.lastChangesFound
        running = status.current != nil
        currentPages = status.current?.pages
        currentItemsChecked = status.current?.itemsChecked
        currentTier = status.current.map { $0.tier ?? "all" }
        tiersCompleted = status.tiersCompleted
        lastError = status.lastError
    }

    enum CodingKeys: String, CodingKey {
        case lastStartedAt = "last_started_at", lastFinishedAt = "last_finished_at", lastAgeSeconds = "last_age_seconds"
        case lastItemsChecked = "last_items_checked", lastChangesFound = "last_changes_found", running
        case currentPages = "current_pages", currentItemsChecked = "current_items_checked", currentTier = "current_tier"
        case tiersCompleted = "tiers_completed", lastError = "last_error"
    }
}
