import ArgumentParser
import Foundation
import RelayApp
import RelayHTTP
import RelayModel
import RelayRules
import RelayStore

struct SilencesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "silences", abstract: "Make, list and expire silences: deliveries they match are recorded silenced, never sent.",
        discussion: "A silence matches a delivery by its rule (--rule) and by the fields a rule's `when` reads (--match FIELD=VALUE: "
            + "transition, result, flag, brand, category, customer_item_id, username; repeat a field for any of several values). "
            + "From its start until it expires, every matching delivery, queued or new, is recorded `silenced` and never sent "
            + "unless retried (`deliveries retry ID`, or `deliveries retry --state silenced`). Every silence is kept after it ends.",
        subcommands: [Add.self, List.self, Expire.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a silence.")

        @Option(help: "The rule whose deliveries it stops (default: any rule).")
        var rule: String?

        @Option(name: .customLong("match"), help: "FIELD=VALUE to match (repeatable).")
        var matches: [String] = []

        @Option(help: "Why: shown with the silence.")
        var reason: String

        @Option(name: .customLong("for"), help: "How long: 30m, 2h, 1d, 1h30m (this or --until).")
        var duration: String?

        @Option(help: "When it ends: an ISO 8601 date-time (this or --for).")
        var until: String?

        @Option(help: "When it starts: an ISO 8601 date-time (default: now).")
        var starts: String?

        @Flag(help: "Print the silence as JSON.")
        var json = false

        func draft(now: Date = Date()) throws -> SilenceDraft {
            var grouped: [String: [String]] = [:]
            for match in matches {
                guard let equals = match.firstIndex(of: "=") else { throw ValidationError("--match \(match): expected FIELD=VALUE") }
                grouped[String(match[..<equals]), default: []].append(String(match[match.index(after: equals)...]))
            }
            func date(_ text: String?, _ flag: String) throws -> Date? {
                guard let text else { return nil }
                guard let date = ISODate.parse(text) else { throw ValidationError("\(flag): must be \(ISODate.expected)") }
                return date
            }
            do {
                var matchers = SilenceMatchers()
                for field in grouped.keys.sorted() { try matchers.set(field, grouped[field] ?? []) }
                return try SilenceDraft.make(rule: rule, matchers: matchers, reason: reason, startsAt: try date(starts, "--starts"),
                                             expiresAt: try date(until, "--until"), duration: duration, now: now)
            } catch let error as SilenceDraft.Invalid {
                let flag = ["expires_at": "--until/--for", "duration": "--for", "starts_at": "--starts", "reason": "--reason", "rule": "--rule",
                            "matchers": "--rule/--match"][error.field] ?? "--match \(error.field)"
                throw ValidationError("\(flag): \(error.reason)")
            }
        }

        func validate() throws {
            _ = try draft()
        }

        func run() async throws {
            let draft = try draft()
            let environment = try CommandEnvironment(receiving: false)
            // With a rules file set, the rule must be one of its rules (a misspelt one would silence nothing).
            if let file = environment.settings.notify.rulesFile {
                do {
                    try draft.requireKnownRule(in: Set(RulesCommand.load(file).rules.map(\.name)))
                } catch {
                    throw ValidationError("--rule: \(error.reason)")
                }
            }
            let logger = environment.logger
            let silence = try await CommandEnvironment.database(environment) { client in
                try await PostgresSilenceStore(client: client, logger: logger).create(draft, author: CommandOperator.name)
            }
            print(json ? try OutputFormat.json(APISilence(silence)) : "silence \(silence.id) until \(ISODate.text(silence.expiresAt))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List silences, newest first.")

        @Flag(help: "Only those in force or to come.")
        var active = false

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let silences = try await CommandEnvironment.database(environment) { client in
                try await PostgresSilenceStore(client: client, logger: logger).list(activeOnly: active, limit: 500)
            }
            if json {
                print(try OutputFormat.json(silences.map { APISilence($0) }))
                return
            }
            let now = Date()
            let rows = silences.map { silence in
                [String(silence.id), silence.status(at: now), silence.rule ?? "*", silence.matchers.summary.isEmpty ? "-" : silence.matchers.summary,
                 ISODate.text(silence.startsAt), ISODate.text(silence.expiredAt ?? silence.expiresAt), silence.author,
                 silence.expiredBy ?? "-", TerminalText.printable(silence.reason)]
            }
            print(rows.isEmpty ? "no silences" : OutputFormat.render(
                header: ["ID", "STATUS", "RULE", "MATCHES", "STARTS", "ENDS", "BY", "EXPIRED BY", "REASON"], rows: rows))
        }
    }

    struct Expire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End a silence now (it is kept, with who ended it).")

        @Argument(help: "The silence's ID, as `silences list` shows it.")
        var id: Int64

        func validate() throws {
            guard id > 0 else { throw ValidationError("the ID must be a positive whole number") }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let outcome = try await CommandEnvironment.database(environment) { client in
                try await PostgresSilenceStore(client: client, logger: logger).expire(id: id, by: CommandOperator.name)
            }
            guard let (silence, ended) = outcome else { throw ValidationError("no silence \(id): see `silences list`") }
            guard ended else { throw ValidationError("silence \(id) had already ended at \(ISODate.text(silence.expiredAt ?? silence.expiresAt))") }
            print("silence \(id) expired")
        }
    }
}
