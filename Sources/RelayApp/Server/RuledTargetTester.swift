import Foundation
public import Logging
public import RelayHTTP
public import RelayModel
import RelayNotify
import RelayRules
public import RelayWorker

/// Test sends for the CLI, the API and the console: the sample delivery from the rules in force
/// (`TargetTestSample`), sent by `TargetTestSender` through clients made for this one send
/// (the settings' callback timeout, address policy and SMTP server) and closed after it. Each
/// test is logged with who asked; nothing is written to deliveries or jobs.
public struct RuledTargetTester: TargetTesting {
    let rules: RulesStore
    let settings: RelaySettings
    let logger: Logger

    public init(rules: RulesStore, settings: RelaySettings, logger: Logger) {
        self.rules = rules
        self.settings = settings
        self.logger = logger
    }

    public func actions() -> [TestableAction] {
        TargetTestSample.actions(in: rules.current)
    }

    public func test(rule: String, action: Int, transition: String?, by: String) async throws -> TargetTestAnswer {
        let current = rules.current
        let (planned, kind) = try TargetTestSample.plan(rules: current, rule: rule, action: action, transition: transition, now: Date())
        let secret = planned.signingKeyID.flatMap { current.signingKeys[$0] }
        let answer = try await withSender { sender in await sender.send(planned, secret: secret, transition: kind) }
        log(answer, by: by)
        return answer
    }

    /// `targets test URL`: the default sample body (`result.final`) to a URL, signed with `secret`
    /// when given, else unsigned.
    public func test(url: String, secret: WebhookSecret?, by: String) async throws -> TargetTestAnswer {
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
              !(components.host ?? "").isEmpty, url.count <= 2_048 else {
            throw TargetTestProblem.invalidURL(url)
        }
        let planned = TargetTestSample.plan(url: url, signed: secret != nil, now: Date())
        var answer = try await withSender { sender in await sender.send(planned, secret: secret, transition: "result.final") }
        answer.rule = nil
        answer.action = nil
        log(answer, by: by)
        return answer
    }

    /// Runs `body` with a sender whose HTTP and SMTP clients are shut down after it.
    func withSender(_ body: (TargetTestSender) async -> TargetTestAnswer) async throws -> TargetTestAnswer {
        let callbacks = WorkerAssembly.callbackSender(settings: settings)
        let smtp: SMTPClient?
        do {
            smtp = try WorkerAssembly.smtpClient(settings: settings)
        } catch {
            await callbacks.shutdown()
            throw error
        }
        let answer = await body(TargetTestSender(callbacks: callbacks, smtp: smtp))
        await smtp?.shutdown()
        await callbacks.shutdown()
        return answer
    }

    func log(_ answer: TargetTestAnswer, by: String) {
        logger.notice("target test sent", metadata: [
            "by": "\(by)", "rule": "\(answer.rule ?? "-")", "action": "\(answer.action.map(String.init) ?? "-")",
            "target": "\(answer.target)", "webhook_id": "\(answer.messageID)",
            "status": "\(answer.statusCode.map(String.init) ?? answer.smtpReply ?? answer.error ?? "-")",
        ])
    }
}
