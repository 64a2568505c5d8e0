import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayHTTP
import RelayStore

/// `entrupy-relay erase --unique-user-id X | --email X | --username X | --customer-item-id X [--dry-run]`.
struct EraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase a person's data (or one customer item ID's) from every table, keeping the results and delivery records.",
        discussion: """
            By --unique-user-id or --email: the SDK users mirror rows, and the people fields of every item their Entrupy \
            username submitted (by --username: that username's, when the mirror has no row for the person). By --customer-item-id: the people fields of that ID's items. For those items it also removes \
            webhook bodies, delivery payloads and replies, and reconciliation notes, cancels pending deliveries, and stores \
            anything fetched for them later without the people fields. Records an erasure entry (who, when, the kind of key, \
            the counts, or that it matched nothing; never the key). Webhooks are matched by their own IDs and bodies too, \
            so those whose item was never stored are erased; v2 items are found by their owner.user_id. The keys are \
            remembered, hashed, even when nothing matched: what is fetched for them later is stored without the people \
            fields. --dry-run runs the same statements and rolls them back. --list prints the entries.
            """)

    @Option(help: "The organisation's own user ID (the SDK's unique_user_id).") var uniqueUserID: String?
    @Option(help: "The person's email, as the SDK users mirror has it (compared without case).") var email: String?
    @Option(help: "The Entrupy username (when the SDK users mirror has no row for the person).") var username: String?
    @Option(help: "The customer's own item ID.") var customerItemID: String?
    @Flag(help: "Count what would be erased; erase nothing.") var dryRun = false
    @Flag(help: "Print the erasures recorded instead.") var list = false
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false)
        let logger = environment.logger
        if list {
            let records = try await CommandEnvironment.database(environment) { client in
                try await PostgresErasureStore(client: client, logger: logger).list()
            }
            print(json ? try OutputFormat.json(records.map(APIErasure.init)) : Self.text(records))
            return
        }
        let selector: ErasureSelector
        do {
            selector = try ErasureSelector.parse(uniqueUserID: uniqueUserID, email: email, username: username, customerItemID: customerItemID)
        } catch {
            throw ValidationError(error.description)
        }
        let who = CommandOperator.name
        let report = try await CommandEnvironment.database(environment) { client in
            try await PostgresErasureStore(client: client, logger: logger).erase(selector, requestedBy: who, dryRun: dryRun)
        }
        if json {
            print(try OutputFormat.json(APIErasure(report: report, selector: selector.kind, requestedBy: who)))
            return
        }
        print(Self.text(report, kind: selector.kind))
    }

    /// A run's or a dry run's report; one that matched nothing says so first, and never as "erased".
    static func text(_ report: ErasureReport, kind: String) -> String {
        var lines: [String]
        switch (report.dryRun, report.outcome) {
        case (true, .erased): lines = ["dry run: erasing by \(kind) would change"]
        case (false, .erased): lines = ["erased by \(kind) (erasure \(report.id ?? 0)):"]
        case (true, .matchedNothing): lines = ["dry run: matched nothing: nothing stored matches that \(kind)"]
        case (false, .matchedNothing):
            lines = ["matched nothing: nothing stored matches that \(kind) (erasure \(report.id ?? 0) recorded as matched_nothing)"]
        }
        if report.outcome == .erased {
            for (name, meaning) in ErasureReport.kinds {
                let count = String(report.counts[name] ?? 0)
                lines.append("  " + String(repeating: " ", count: max(0, 6 - count.count)) + count + "  " + meaning)
            }
        }
        if report.rememberedKeys > 0 {
            lines.append("\(report.dryRun ? "would remember" : "remembered") \(report.rememberedKeys) key(s), hashed: "
                + "what is fetched for them later is stored without the people fields")
        }
        return lines.joined(separator: "\n")
    }

    static func text(_ records: [ErasureRecord]) -> String {
        let formatter = ISO8601DateFormatter()
        let rows = records.map { record in
            [String(record.id), formatter.string(from: record.requestedAt), TerminalText.printable(record.requestedBy), record.selector,
             record.outcome == .matchedNothing ? "matched nothing"
                : ErasureReport.kinds.compactMap { kind in record.counts[kind.name].flatMap { $0 > 0 ? "\(kind.name) \($0)" : nil } }
                    .joined(separator: ", ")]
        }
        return rows.isEmpty ? "no erasures" : OutputFormat.render(header: ["ID", "AT", "BY", "KEY", "COUNTS"], rows: rows)
    }
}
