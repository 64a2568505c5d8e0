import Foundation
import RelayModel
import Testing

/// Issue 46: a silence made while an email group waits stops the members it matches, whichever
/// member's job sends the group. Only the job of the group's first member (which the silence
/// does not match) is woken, so without the check on every member it would email them all.
@Suite("Email digests and silences", .serialized, .timeLimit(.minutes(3)))
struct EmailDigestSilenceTests {
    static let rules = """
        rules:
          - name: finals
            when: {transition: [result.final]}
            notify:
              - email:
                  to: [support@example.com]
                  subject: "{{customer_item_id}} is {{result}}"
                  text: "{{entrupy_id}} ({{brand}}) is {{result}}"
                  group_by: [rule]
                  group_wait: 1h
                  digest_subject: "{{count}} items are final"
        """

    @Test func aSilenceStopsTheMembersItMatchesWhenAnotherMembersJobSendsTheGroup() async throws {
        try await TestSMTPServer.with { smtp async throws in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let env = try NotifyEnvironment.make(rules: Self.rules, smtpPort: smtp.port, extra: WorkerProcessTests.workerEnv(stack.simulator))
                // Created in this order: the group's first member is adidas.
                var created: [(String, String)] = []
                for (n, brand) in ["adidas", "nike", "nike", "gucci", "nike"].enumerated() {
                    created.append((try await stack.simulator.createItem("sku-s\(n)", brand: brand, result: "authentic", final: true), brand))
                }
                let worker = try RelayProcess(["worker"], database: stack.database, env: env)
                #expect(try await EmailDigestTests.waitForPlanned(stack, 5), "the deliveries wait for their group")

                let support = try await APIAccess.token(stack.database, role: .support)
                let made = try await stack.relay.post("/v1/silences", token: support, json: """
                    {"matchers": {"brand": "nike"}, "reason": "nike incident", "duration": "1h"}
                    """)
                #expect(made.status == 201, "\(made.body)")
                let silenceID = try #require(made.json?["id"] as? Int)
                // The last nike member was silenced earlier and redriven by an operator: it is sent.
                let redriven = created[4].0
                try await TestDatabase.execute(stack.database, """
                    UPDATE deliveries SET silence_id = \(silenceID) WHERE entrupy_id = '\(redriven)'
                    """)
                // The worker reads its silences again when its copy is two seconds old.
                try await Task.sleep(for: .seconds(2.5))
                let first = try #require(try await NotifyEnvironment.deliveries(stack.database, item: created[0].0).first)
                try await TestDatabase.execute(stack.database, """
                    UPDATE deliveries SET created_at = created_at - interval '1 hour' WHERE state = 'pending'
                    """)
                try await TestDatabase.execute(stack.database, """
                    UPDATE jobs SET scheduled_at = now() WHERE unique_key = 'delivery:\(first.id)'
                    """)
                #expect(try await eventually(timeout: .seconds(30)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 3
                })
                try await Task.sleep(for: .seconds(1))
                let mails = try smtp.messages()
                #expect(mails.count == 1, "\(mails.map { $0.header("Subject") ?? "" })")
                let mail = try #require(mails.first)
                #expect(mail.header("Subject") == "3 items are final")
                let body = EmailDigestTests.body(mail)
                let silenced = [created[1].0, created[2].0]
                #expect([created[0].0, created[3].0, redriven].allSatisfy { body.contains($0) }, "the unsilenced ones and the redriven one")
                #expect(!silenced.contains { body.contains($0) }, "no nike member the silence matches: \(body)")
                for item in silenced {
                    let delivery = try #require(try await NotifyEnvironment.deliveries(stack.database, item: item).first)
                    #expect(delivery.state == .silenced && delivery.silenceID == Int64(silenceID) && delivery.attempts == 0)
                }
                #expect(try await stack.count("SELECT count(*) FROM delivery_attempts") == 3, "a silenced member has no attempt")
                #expect(await worker.stop() == 0)
            }
        }
    }
}
