import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP

struct DeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries", abstract: "Inspect and retry notifications.", subcommands: [List.self, Show.self, Retry.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List deliveries, newest first.")

        @Option(help: "Only deliveries in this state: pending, failed, delivered, dead or silenced.")
        var state: String?

        @Option(help: "Only deliveries for this Entrupy ID.")
        var item: String?

        @Option(help: "The delivery with this idempotency key: the webhook-id header a partner quotes (or an email's Message-ID before the @).")
        var webhookID: String?

        @Option(help: "Only this rule's deliveries.")
        var rule: String?

        @Option(help: "Only deliveries to this target, as the list shows it (https://hooks.example.com/***, or the recipients).")
        var target: String?

        @Option(help: "Only email or webhook deliveries.")
        var channel: String?

        @Option(help: "Created at or after (ISO 8601).")
        var since: String?

        @Option(help: "Created before (ISO 8601).")
        var until: String?

        @Option(help: "How many to show (1 to 10000).")
        var limit: Int = 50

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func validate() throws {
            _ = try search()
        }

        /// The filters as the API reads them, so the same values mean the same thing (and are refused alike).
        func search() throws -> DeliverySearch {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
            let given: [(String, String?)] = [("state", state), ("item", item), ("webhook_id", webhookID), ("rule", rule), ("target", target),
                                              ("channel", channel), ("since", since), ("until", until)]
            do {
                return try DeliveryListQuery.parse(given.compactMap { name, value in value.map { (name, $0) } }).search
            } catch {
                throw ValidationError("--\(error.parameter.replacingOccurrences(of: "_", with: "-")): \(error.message)")
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let search = try self.search(), limit = self.limit
            let deliveries = try await CommandEnvironment.database(environment) { client in
                try await PostgresDeliveryStore(client: client, logger: logger).list(search, limit: limit)
            }
            if json {
                print(try OutputFormat.json(deliveries.map(APIDelivery.init)))
                return
            }
            let rows = deliveries.map { delivery in
                [String(delivery.id), delivery.entrupyID ?? "-", delivery.transition, delivery.rule, delivery.channel.rawValue,
                 delivery.target, Show.state(of: delivery, breaker: false), String(delivery.attempts), delivery.lastError ?? "-"]
            }
            print(rows.isEmpty ? "no deliveries" : OutputFormat.render(
                header: ["ID", "ENTRUPY ID", "TRANSITION", "RULE", "CHANNEL", "TARGET", "STATE", "ATTEMPTS", "LAST ERROR"], rows: rows))
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attempt a dead, failed or silenced delivery again now, with the same idempotency key; or, without an ID, every one the filters name.",
            discussion: "Without an ID: the dead deliveries (or --state failed or silenced) of --rule, --target (as `deliveries list` shows it), --item, "
                + "created in [--since, --until). Run it with --dry-run first: it prints how many match. At most 10000 at a time.")

        @Argument(help: "The delivery ID.")
        var id: Int64?

        @Option(help: "Bulk: dead (the default), failed or silenced.")
        var state: String?

        @Option(help: "Bulk: only this rule's deliveries.")
        var rule: String?

        @Option(help: "Bulk: only deliveries to this target, as deliveries list shows it.")
        var target: String?

        @Option(help: "Bulk: only this Entrupy ID's deliveries.")
        var item: String?

        @Option(help: "Bulk: only email or webhook deliveries.")
        var channel: String?

        @Option(help: "Bulk: created at or after (ISO 8601).")
        var since: String?

        @Option(help: "Bulk: created before (ISO 8601).")
        var until: String?

        @Flag(help: "Bulk: print how many deliveries match; retry none.")
        var dryRun = false

        func validate() throws {
            let bulk = state != nil || rule != nil || target != nil || item != nil || channel != nil || since != nil || until != nil || dryRun
            if id != nil, bulk { throw ValidationError("give a delivery ID or filters, not both") }
            // A forgotten ID must not redrive every dead delivery: a bulk retry names at least one filter.
            if id == nil, !bulk {
                throw ValidationError("give a delivery ID, or filters (--state dead names every dead delivery; --dry-run counts them)")
            }
            for (name, value) in [("--since", since), ("--until", until)] where value.map({ ISODate.parse($0) == nil }) == true {
                throw ValidationError("\(name) must be \(ISODate.expected)")
            }
            if id == nil { _ = try filter() }
        }

        func filter() throws -> DeliveryFilter {
            do {
                return try DeliveryFilter.parse(state: state, rule: rule, target: target, item: item, channel: channel,
                                                since: since.flatMap(ISODate.parse), until: until.flatMap(ISODate.parseUntil))
            } catch {
                // Typed: `error` is a DeliveryFilter.Invalid.
                throw ValidationError("--\(error.field): \(error.reason)")
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            guard let id = self.id else {
                let filter = try self.filter(), dryRun = self.dryRun
                let report = try await CommandEnvironment.database(environment) { client in
                    try await PostgresBulkRetry(client: client, logger: logger).run(filter, requestedBy: CommandOperator.name, dryRun: dryRun)
                }
                print(dryRun ? "\(report.matched) deliveries match; none retried (--dry-run)"
                             : "\(report.matched) deliveries matched: \(report.queued) will be attempted again now, \(report.skipped) skipped "
                                + "(being attempted, delivered meanwhile, or without their payload); bulk action \(report.id ?? 0)")
                return
            }
            let outcome = try await CommandEnvironment.database(environment) { client in
                try await PostgresDeliveryStore(client: client, logger: logger).retry(id: id)
            }
            switch outcome {
            case .queued: print("delivery \(id) will be attempted again now")
            case .notFound: CommandEnvironment.fail("delivery \(id) does not exist")
            case .alreadyDelivered: CommandEnvironment.fail("delivery \(id) was already delivered")
            case .payloadRemoved(let why): CommandEnvironment.fail("delivery \(id) cannot be sent again: its payload was \(why)")
            case .inFlight: CommandEnvironment.fail("delivery \(id) is being attempted right now")
            }
        }
    }
}
