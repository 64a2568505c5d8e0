import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayRuntime
import RelayRules
import RelayStore
import RelayWorker

struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Validate a rules file, or see what it would send.", subcommands: [Check.self, Test.self]
    )

    static func load(_ file: String) -> RuleSet {
        let reader: SettingsReader
        do {
            reader = try SettingsSources.process().reader()
        } catch {
            CommandEnvironment.fail("\(error)")
        }
        do {
            return try RulesStore.load(file, parser: RuleSetParser(secret: { try reader.namedSecret($0) }))
        } catch let error as RuleSetError {
            CommandEnvironment.fail("\(file): " + error.description)
        } catch {
            CommandEnvironment.fail("\(file): \(error)")
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a rules file without starting anything; each problem names its rule and field."
        )

        @Argument(help: "The rules file (YAML).")
        var file: String

        func run() async throws {
            let rules = RulesCommand.load(file)
            print("\(file): ok, \(rules.rules.count) rule\(rules.rules.count == 1 ? "" : "s")")
            for rule in rules.rules {
                let actions = rule.actions.map(\.channelName).joined(separator: ", ")
                print("  \(rule.name): \(actions)\(rule.continues ? " (continue)" : "")")
            }
            for (target, limit) in rules.rateLimits.sorted(by: { $0.key < $1.key }) { print("  target \(target): at most \(limit.text)") }
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which rules would fire for an item's latest transition, and what they would send. Sends nothing."
        )

        @Argument(help: "The rules file (YAML).")
        var file: String

        @Option(help: "An Entrupy ID or customer item ID already stored by the relay.")
        var item: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let rules = RulesCommand.load(file)
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let id = item
            guard let found = try await CommandEnvironment.database(environment, { client in
                try await PostgresItemStore(client: client, logger: logger).latestTransition(id)
            }) else {
                CommandEnvironment.fail("no item with Entrupy ID or customer item ID \"\(id)\" and a transition")
            }
            let planned = DeliveryPlanner.plan(rules: rules, item: found.item, transitions: [found.transition.transition], occurredAt: found.transition.occurredAt)
            let transition = found.transition.transition
            if json {
                let output = JSONValue.object([
                    "entrupy_id": .string(found.item.entrupyID),
                    "transition": .string(transition.kind.rawValue),
                    "deliveries": .array(planned.map { delivery in
                        .object(["rule": .string(delivery.rule), "channel": .string(delivery.channel.rawValue),
                                 "target": .string(delivery.target), "payload": delivery.payload.shownJSON])
                    }),
                ])
                print(output.jsonText)
                return
            }
            print(TerminalText.printable("\(found.item.entrupyID): latest transition \(transition.kind.rawValue) (\(transition.from ?? "-") → \(transition.to ?? "-"))"))
            if planned.isEmpty { print("  no rule fires"); return }
            for delivery in planned {
                switch delivery.payload {
                case .email(let email):
                    print(TerminalText.printable("  \(delivery.rule): email to \(delivery.target): \"\(email.subject)\""))
                case .webhook:
                    print("  \(delivery.rule): webhook POST \(delivery.target)")
                }
            }
            print("(nothing was sent)")
        }
    }
}
