import ArgumentParser
import Foundation
import RelayModel

/// `webhooks verify`: checks a captured delivery against the configured secrets.
struct WebhooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks", abstract: "Check captured webhook deliveries.", subcommands: [Verify.self]
    )

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say which configured secret and scheme a captured delivery verifies with, or why none does (exit 1).")

        @Option(help: "The body as received, byte for byte (a file; - for standard input).")
        var body: String

        @Option(name: .customLong("header"), help: "A header as received, 'Name: value' (repeat for each).")
        var headers: [String] = []

        func run() throws {
            var received: [String: String] = [:]
            for header in headers {
                guard let colon = header.firstIndex(of: ":") else {
                    throw ValidationError("--header must be 'Name: value', got \"\(header.prefix(80))\"")
                }
                received[header[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                    header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let bytes: [UInt8]
            do {
                bytes = body == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile())
                    : Array(try Data(contentsOf: URL(fileURLWithPath: body)))
            } catch {
                throw ValidationError("--body: cannot read \(body)")
            }
            let settings = try CommandEnvironment(receiving: true).settings.receiver
            let verifier = WebhookVerifier(entrupySecrets: settings.entrupyWebhookSecrets, standardSecrets: settings.standardWebhookSecrets,
                                           tolerance: Double(settings.standardWebhookToleranceSeconds))
            let verdict = SignatureDiagnosis(verifier: verifier).diagnose(body: bytes, headers: received)
            for line in verdict.lines { print(TerminalText.printable(line)) }
            if !verdict.accepted { throw ExitCode(1) }
        }
    }
}
