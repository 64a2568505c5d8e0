import ArgumentParser
import Foundation
import RelayApp
import RelayHTTP
import RelayModel
import RelayRules
import RelayRuntime
import RelayWorker

extension TargetsCommand {
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a sample event to a rule's target (or a URL) and print its answer; records no delivery.",
            discussion: "RULE: the rule's action is rendered for a fabricated item (sample values for every template variable) "
                + "and a transition the rule matches, then sent as a real delivery would be: a callback signed with the rule's "
                + "secret through the same address policy, with a `webhook-id` starting `test_`; an email through the SMTP server. "
                + "URL: the relay's default body for a sample result.final, signed with the secret in --secret-env. "
                + "Exits 0 when the target answered 2xx (or the SMTP server accepted the message), 1 otherwise.")

        @Argument(help: "A rule's name from the rules file, or an http(s) URL.")
        var target: String

        @Option(help: "The rule's action to try: its position in `notify`, from 0.")
        var action = 0

        @Option(help: "The transition kind to render the sample for (e.g. flag.raised); the rule must match it.")
        var transition: String?

        @Option(help: "URL form: the environment variable holding the Standard Webhooks secret (whsec_...) to sign with.")
        var secretEnv: String?

        @Option(help: "The rules file (default: ENTRUPY_RELAY_RULES_FILE).")
        var rules: String?

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            guard action >= 0 else { throw ValidationError("--action must be 0 or more (the action's position in the rule's notify list)") }
            if target.contains("://") {
                guard transition == nil, rules == nil else { throw ValidationError("--transition and --rules apply to a rule, not a URL") }
            } else if secretEnv != nil {
                throw ValidationError("--secret-env applies to a URL: a rule signs with its own secret")
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let reader = environment.settings.reader
            let store = try CommandEnvironment.assemble {
                if let rules { return try RulesStore(path: rules, parser: RuleSetParser(secret: { try reader.namedSecret($0) })) }
                return try WorkerAssembly.rulesStore(settings: environment.settings)
            }
            let tester = RuledTargetTester(rules: store, settings: environment.settings, logger: environment.logger)
            let answer: TargetTestAnswer
            do {
                if target.contains("://") {
                    answer = try await tester.test(url: target, secret: try secret(), by: CommandOperator.name)
                } else {
                    answer = try await tester.test(rule: target, action: action, transition: transition, by: CommandOperator.name)
                }
            } catch let problem as TargetTestProblem {
                CommandEnvironment.fail(problem.description)
            } catch let error as SettingsError {
                CommandEnvironment.fail(error.description)
            }
            print(json ? try OutputFormat.json(APITargetTest(answer)) : TargetTestOutput.text(answer))
            if !answer.succeeded { throw ExitCode(1) }
        }

        /// The secret named by --secret-env, read as rules read theirs (NAME, or NAME_FILE).
        func secret() throws -> WebhookSecret? {
            guard let name = secretEnv else { return nil }
            let reader = try SettingsSources.process().reader()
            guard let text = try reader.namedSecret(name) else { CommandEnvironment.fail("--secret-env: environment variable \(name) is not set") }
            guard let secret = WebhookSecret.standardWebhooks(text) else {
                CommandEnvironment.fail("--secret-env: \(name) is not a Standard Webhooks secret (whsec_ followed by base64)")
            }
            return secret
        }
    }
}
