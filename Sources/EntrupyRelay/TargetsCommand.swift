import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP
import RelayRules

struct TargetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets", abstract: "Show delivery targets' health (their circuit breakers); disable or enable one.",
        discussion: "A target is a callback endpoint (scheme, host, port and path, shown as origin/***#fingerprint: a path may be a secret) "
            + "or `smtp`. Only what says it is unwell (no connection, timeouts, 5xx, 429, 3xx, 401, 403, 404, 405) counts against it; "
            + "a message it refuses (other 4xx) fails alone. An open or disabled target's deliveries are held: "
            + "not attempted, no attempt counted. Only targets that ever failed or were disabled are listed, and those the rules file's "
            + "`targets:` list gives a rate limit (ID 0 when it has no row of its own).",
        subcommands: [List.self, Enable.self, Disable.self, Test.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List targets, disabled and open first.")

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let stored = try await CommandEnvironment.database(environment) { client in
                try await PostgresTargetHealthStore(client: client, logger: logger).list()
            }
            let targets = TargetsCommand.withRateLimits(stored, environment: environment)
            if json {
                print(try OutputFormat.json(targets.map(APITarget.init)))
                return
            }
            let rows = targets.map { summary in
                let health = summary.health
                return [String(health.id ?? 0), health.key, health.state.rawValue, ISODate.text(health.stateSince),
                        String(summary.held), String(health.consecutiveFailures),
                        health.state == .open ? health.nextProbeAt.map(ISODate.text) ?? "-" : "-", summary.rateLimit?.text ?? "-",
                        health.lastError ?? "-"]
            }
            print(rows.isEmpty ? "no targets have failed" : OutputFormat.render(
                header: ["ID", "TARGET", "STATE", "SINCE", "HELD", "FAILURES IN A ROW", "NEXT PROBE", "RATE LIMIT", "LAST ERROR"], rows: rows))
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enable a target: healthy again, its held deliveries released at target_drain_per_second.")

        @Argument(help: "The target's ID or key, as `targets list` shows it.")
        var target: String

        func validate() throws {
            try TargetsCommand.check(target)
        }

        func run() async throws {
            try await TargetsCommand.set(target, enabled: true)
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable a target: its deliveries are held, and nothing probes it, until it is enabled.")

        @Argument(help: "The target's ID or key (a key not yet listed is added: a callback URL names its endpoint, e.g. https://partner.example.com/hook, or smtp).")
        var target: String

        func validate() throws {
            try TargetsCommand.check(target)
        }

        func run() async throws {
            try await TargetsCommand.set(target, enabled: false)
        }
    }

    /// An ID, `smtp`, or an http(s) URL with a host (its origin is the key): anything else would
    /// name no target the relay delivers to, and disabling it would hold nothing.
    static func check(_ target: String) throws {
        if Int64(target).map({ $0 > 0 }) == true || target.lowercased() == TargetKey.smtp { return }
        guard target.count <= 300, let url = URLComponents(string: target), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              !(url.host ?? "").isEmpty else {
            throw ValidationError("the target must be an ID from `targets list`, smtp, or a callback URL such as https://partner.example.com")
        }
    }

    /// A transition like the breaker's (`target.disabled`, `target.enabled`) naming who ran the
    /// command, alerting through the rules file the worker reads (`ENTRUPY_RELAY_RULES_FILE`).
    static func set(_ target: String, enabled: Bool) async throws {
        let environment = try CommandEnvironment(receiving: false)
        let logger = environment.logger
        let key = Int64(target) == nil ? TargetKey.normalized(target) : target
        let settings = environment.settings
        let health = try await CommandEnvironment.database(environment) { client in
            let rules = try WorkerAssembly.rulesStore(settings: settings)
            return try await PostgresTargetHealthStore(client: client, logger: logger).set(key, enabled: enabled, by: CommandOperator.name) { event in
                DeliveryPlanner.plan(rules: rules.current, event: event)
            }
        }
        guard let health else { throw ValidationError("no target \(target): see `targets list`") }
        print("\(health.key) is \(health.state.rawValue)")
    }
}
