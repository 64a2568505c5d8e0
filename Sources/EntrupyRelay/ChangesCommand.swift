import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayHTTP
import RelayStore

/// `entrupy-relay changes follow`: the change feed (`GET /v1/changes`) as JSON lines.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Read every transition in the change feed's order.",
        subcommands: [Follow.self]
    )

    struct Follow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print each transition as one JSON line, from the start or after a cursor, then wait for more (Ctrl-C stops).",
            discussion: "Each line carries its own `cursor`: to resume after a stop, pass the last line's cursor to --after. "
                + "A transition is printed only once every transaction that could still commit one before it has ended, "
                + "so a follower never skips one.")

        @Option(help: "Start after this cursor (a `cursor` or `next_cursor` from the feed); by default from the first transition.")
        var after: String?

        @Option(help: "Transitions read at a time (1 to 1000).")
        var limit = 100

        @Flag(help: "Print what there is now and stop; the cursor to resume from goes to standard error.")
        var once = false

        func validate() throws {
            guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
            if let after {
                do { _ = try ChangeCursor.parse(after) } catch { throw ValidationError("--after: \(error.description)") }
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let start = try after.map { try ChangeCursor.parse($0) } ?? .start
            let (limit, once) = (self.limit, self.once)
            let last = try await CommandEnvironment.database(environment) { client in
                let feed = PostgresChangeFeed(client: client, logger: logger)
                var cursor = start
                while !Task.isCancelled {
                    let page = try await feed.changes(after: cursor, limit: limit, wait: once ? .zero : .seconds(30), poll: .milliseconds(500))
                    // Written at once, not buffered: a follower's reader sees each line as it comes.
                    var lines = ""
                    for entry in page {
                        lines += try APIJSON.text(APIChange(entry), pretty: false) + "\n"
                        cursor = entry.cursor
                    }
                    if !lines.isEmpty { FileHandle.standardOutput.write(Data(lines.utf8)) }
                    if once && page.count < limit { break }
                }
                return cursor
            }
            FileHandle.standardError.write(Data("next_cursor: \(last)\n".utf8))
        }
    }
}
