import Foundation
import RelayModel
import RelayHTTP
import Synchronization

/// Test sends in memory: rule `notify` has a webhook (action 0) whose endpoint answers 202 with
/// a body that carries markup, and an email (action 1) the server refuses; each send is noted.
final class MemoryTargetTests: TargetTesting {
    let sent = Mutex<[String]>([])

    func actions() -> [TestableAction] {
        [TestableAction(rule: "notify", action: 0, channel: .webhook, target: "https://partner.example/***"),
         TestableAction(rule: "notify", action: 1, channel: .email, target: "ops@example.com")]
    }

    func test(rule: String, action: Int, transition: String?, by: String) async throws -> TargetTestAnswer {
        guard rule == "notify" else { throw TargetTestProblem.unknownRule(rule, known: ["notify"]) }
        guard (0...1).contains(action) else { throw TargetTestProblem.actionOutOfRange(rule: rule, index: action, count: 2) }
        if let transition, transition != "result.final" { throw TargetTestProblem.unknownTransition(transition) }
        sent.withLock { $0.append("\(rule)/\(action) by \(by)") }
        if action == 1 {
            return TargetTestAnswer(rule: rule, action: action, channel: .email, target: "ops@example.com", transition: "result.final",
                                    messageID: "test_2", smtpReply: "550 5.1.1 no such user", error: "refused", succeeded: false, milliseconds: 3)
        }
        return TargetTestAnswer(rule: rule, action: action, channel: .webhook, target: "https://partner.example/***", transition: "result.final",
                                messageID: "test_1", statusCode: 202, headers: ["content-type": "application/json"],
                                excerpt: #"{"queued": "<b>yes</b>"}"#, succeeded: true, milliseconds: 12)
    }
}
