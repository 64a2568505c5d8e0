import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayWorker

/// `entrupy-relay prune [--dry-run]`: what each retention setting removes now, or a pass now.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove what the retention settings name now (the worker does this every ENTRUPY_RELAY_RETENTION_INTERVAL_SECONDS).",
        discussion: "With --dry-run, prints for each kind of data its setting, its cutoff, and the rows (and an estimate of the bytes) "
            + "pruning would remove now, without removing anything. Exits 3 when another replica is pruning.")

    @Flag(help: "Count what would be removed; remove nothing.")
    var dryRun = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false)
        let settings = environment.settings, logger = environment.logger
        let policy = settings.retention.policy
        if dryRun {
            let lines = try await CommandEnvironment.database(environment) { client in
                let (now, estimates) = try await WorkerAssembly.pruner(settings: settings, client: client, logger: logger).estimates()
                return RetentionKind.allCases.map { kind in
                    PruneLine(kind: kind.rawValue, days: policy.days[kind], cutoff: policy.cutoff(kind, now: now),
                              rows: estimates[kind]?.rows ?? 0, bytes: estimates[kind]?.bytes ?? 0)
                }
            }
            print(json ? try OutputFormat.json(lines) : Self.text(lines))
            return
        }
        let pruned = try await CommandEnvironment.database(environment) { client in
            try await WorkerAssembly.pruner(settings: settings, client: client, logger: logger).pass()
        }
        guard let pruned else {
            print("another replica is pruning; try again later")
            throw ExitCode(3)
        }
        let lines = RetentionKind.allCases.map { kind in
            PruneLine(kind: kind.rawValue, days: policy.days[kind], cutoff: nil, rows: pruned[kind] ?? 0, bytes: nil)
        }
        print(json ? try OutputFormat.json(lines) : Self.text(lines, done: true))
    }

    static func text(_ lines: [PruneLine], done: Bool = false) -> String {
        let formatter = ISO8601DateFormatter()
        let header = ["KIND", "KEPT", done ? "PRUNED" : "WOULD PRUNE", done ? "" : "BYTES", done ? "" : "OLDER THAN"]
        let rows = lines.map { line in
            [line.kind, line.days.map { "\($0) days" } ?? "for ever", line.days == nil ? "-" : "\(line.rows) rows",
             line.bytes.map(byteText) ?? "", line.cutoff.map { formatter.string(from: $0) } ?? ""]
        }
        return OutputFormat.render(header: header, rows: rows)
    }

    static func byteText(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes), unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(bytes) B" : "\((value * 10).rounded() / 10) \(units[unit])"
    }
}

/// One kind's line of `prune` (`--json`: an array of these).
struct PruneLine: Encodable {
    let kind: String
    /// Nil: kept for ever.
    let days: Int?
    let cutoff: Date?
    let rows: Int
    let bytes: Int64?
}
