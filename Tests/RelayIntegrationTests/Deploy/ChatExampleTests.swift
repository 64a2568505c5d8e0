import Foundation
import Testing

/// The shipped chat example (issue 46) loads with the real `rules check`, its URLs and secret
/// given as the `${NAME}` variables it documents, and names none of their values when refused.
@Suite("Chat rules example")
struct ChatExampleTests {
    @Test func theChatExampleLoadsWithItsVariables() async throws {
        let example = TestServerProcess.root.appendingPathComponent("deploy/rules/chat.yaml")
        var env = [
            "PATH": "/usr/bin:/bin", "SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/T000/B000/slack-url-secret",
            "GOOGLE_CHAT_WEBHOOK_URL": "https://chat.googleapis.com/v1/spaces/S/messages?key=K&token=gchat-url-secret",
            "DISCORD_WEBHOOK_URL": "https://discord.com/api/webhooks/1/discord-url-secret",
            "TEAMS_WORKFLOW_URL": "https://prod-00.westeurope.logic.azure.com/workflows/W/triggers/manual/paths/invoke?sig=teams-url-secret",
            "ERP_WEBHOOK_SECRET": WebhookFixture.standardSecret,
        ]
        let loaded = try await CommandLineTests.run(["rules", "check", example.path], env: env)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.hasPrefix("\(example.path): ok, 5 rules"), "\(loaded.stdout)")
        #expect(!(loaded.stdout + loaded.stderr).contains("url-secret"))
        env["DISCORD_WEBHOOK_URL"] = "discord.com/api/webhooks/1/discord-url-secret"
        env["SLACK_WEBHOOK_URL"] = nil
        let refused = try await CommandLineTests.run(["rules", "check", example.path], env: env)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("SLACK_WEBHOOK_URL is not set"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the value of ${DISCORD_WEBHOOK_URL} (not shown) is not an absolute http or https URL"))
        #expect(!refused.stderr.contains("url-secret"), "\(refused.stderr)")
    }
}
