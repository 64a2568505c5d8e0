import Foundation
import RelayModel
import PostgresNIO
import Testing

/// Issue 46: grouped email, end to end. Transitions of one group become one email listing
/// each, sent by one of two worker processes, and every delivery is settled by it with its
/// own attempt naming the email. The group's window is an hour; the test moves the
/// deliveries' creation an hour back and wakes their jobs, so the window closes when the test
/// says, however long the machine took to reconcile.
@Suite("Email grouping and digests", .serialized, .timeLimit(.minutes(4)))
struct EmailDigestTests {
    static let rules = """
        rules:
          - name: finals
            when: {transition: [result.final]}
            notify:
              - email:
                  to: [support@example.com]
                  subject: "{{customer_item_id}} is {{result}}"
                  text: "{{entrupy_id}} ({{brand}}) is {{result}}"
                  group_by: [rule, brand]
                  group_wait: 1h
                  digest_subject: "{{count}} {{brand}} items are final"
        """

    /// Moves every pending or failed delivery's creation an hour back and wakes the jobs
    /// waiting on them: the groups are due now.
    static func closeWindows(_ database: DatabaseURL) async throws {
        try await TestDatabase.execute(database, """
            UPDATE deliveries SET created_at = created_at - interval '1 hour' WHERE state IN ('pending', 'failed')
            """)
        try await TestDatabase.execute(database, """
            UPDATE jobs SET scheduled_at = now() WHERE kind = 'deliver' AND state IN ('available', 'retryable')
            """)
    }

    /// Waits until `count` deliveries are planned and every job but the deliver jobs' waits has run.
    static func waitForPlanned(_ stack: ReconcileStack, _ count: Int) async throws -> Bool {
        try await eventually(timeout: .seconds(120)) {
            let pending = try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'pending'")
            let due = try await stack.count("""
                SELECT count(*) FROM jobs
                WHERE state = 'running' OR (state IN ('available', 'retryable') AND scheduled_at < now() + interval '10 minutes')
                """)
            return pending == count && due == 0
        }
    }

    /// The text of a message with its quoted-printable soft line breaks undone.
    static func body(_ mail: TestSMTPServer.Mail) -> String {
        mail.data.replacingOccurrences(of: "=\r\n", with: "")
    }

    @Test func threeHundredTransitionsOfOneGroupArriveAsOneEmailAndTwoBrandsAsTwo() async throws {
        try await TestSMTPServer.with { smtp async throws in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let env = try NotifyEnvironment.make(rules: Self.rules, smtpPort: smtp.port, extra: WorkerProcessTests.workerEnv(stack.simulator))
                var created: [String] = []
                for n in 0..<305 {
                    created.append(try await stack.simulator.createItem("sku-\(n)", brand: n < 300 ? "nike" : "gucci", result: "authentic", final: true))
                }
                let nike = Array(created.prefix(300)), gucci = Array(created.suffix(5))
                let workers = try (0..<2).map { _ in try RelayProcess(["worker"], database: stack.database, env: env) }
                #expect(try await Self.waitForPlanned(stack, 305), "the 305 deliveries wait for their group")
                #expect(try smtp.messages().isEmpty, "nothing is sent before the group is due")
                try await Self.closeWindows(stack.database)
                #expect(try await eventually(timeout: .seconds(60)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 305
                })
                try await Task.sleep(for: .seconds(1))
                let mails = try smtp.messages()
                #expect(mails.count == 2, "one email per brand: \(mails.map { $0.header("Subject") ?? "" })")
                let nikeMail = try #require(mails.first { $0.header("Subject") == "300 nike items are final" })
                let gucciMail = try #require(mails.first { $0.header("Subject") == "5 gucci items are final" })
                let nikeBody = Self.body(nikeMail)
                #expect(nike.allSatisfy { nikeBody.contains("\($0) (nike) is authentic") }, "the email lists all 300")
                #expect(nikeBody.contains("300. ") && !nikeBody.contains("301. ") && !nikeBody.contains("(gucci)"))
                #expect(gucci.allSatisfy { Self.body(gucciMail).contains("\($0) (gucci) is authentic") })
                #expect(nikeMail.recipients == ["support@example.com"])
                // Each delivery has one attempt, delivered, naming the email it went in.
                let nikeID = try #require(nikeMail.header("Message-ID"))
                #expect(try await stack.count("""
                    SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
                    WHERE d.state = 'delivered' AND d.attempts = 1 AND a.attempt = 1 AND a.outcome = 'delivered'
                      AND a.response_excerpt = 'sent in digest \(nikeID) with 300 deliveries'
                    """) == 300)
                #expect(try await stack.count("SELECT count(*) FROM delivery_attempts") == 305)
                // The API, the item's timeline and the console say it went in the digest.
                let support = try await APIAccess.token(stack.database, role: .support)
                let item = try #require(try await stack.relay.get("/v1/items/\(nike[0])", token: support).json)
                let delivery = try #require((item["deliveries"] as? [[String: Any]])?.first)
                let group = try #require(delivery["group"] as? [String: Any])
                #expect(group["values"] as? [String: String] == ["brand": "nike"] && group["timing"] as? String == "group_wait 3600s")
                let timeline = (item["timeline"] as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String }
                #expect(timeline.contains { $0.hasSuffix("attempt 1 delivered; sent in digest \(nikeID) with 300 deliveries") }, "\(timeline)")
                let cookie = try await ConsoleSignIn.session(stack.relay, token: support)
                let page = try await stack.relay.request("/console/items/\(nike[0])", headers: [("Cookie", cookie)])
                #expect(page.body.contains("grouped by brand=nike, group_wait 3600s, due "))
                let shown = try await CommandLineTests.run(["deliveries", "show", String(try #require(delivery["id"] as? Int))],
                                                           env: CommandLineTests.environment(stack.database))
                #expect(shown.stdout.contains("group: grouped by brand=nike, group_wait 3600s, due "), "\(shown.stdout) \(shown.stderr)")
                #expect(page.body.contains("sent in digest \(nikeID.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")) with 300"))
                for worker in workers { #expect(await worker.stop() == 0) }
            }
        }
    }

    /// The SMTP server is down when the group is due: its deliveries fail together (one
    /// attempt each, naming the one email), retry together, and arrive as one email.
    @Test func anSMTPFailureRetriesTheGroupAndStillSendsOneEmail() async throws {
        let port = try await freePort()
        try await ReconcileStack.with(worker: false) { stack async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules, smtpPort: port, schedule: Array(repeating: "1s", count: 30).joined(separator: ","),
                                                 extra: WorkerProcessTests.workerEnv(stack.simulator, NotifyEnvironment.withoutBreaker))
            var created: [String] = []
            for n in 0..<6 { created.append(try await stack.simulator.createItem("sku-f\(n)", brand: "prada", result: "authentic", final: true)) }
            let ids = created
            let worker = try RelayProcess(["worker"], database: stack.database, env: env)
            #expect(try await Self.waitForPlanned(stack, 6))
            try await Self.closeWindows(stack.database)
            #expect(try await eventually(timeout: .seconds(30)) {
                try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'failed' AND attempts >= 1") == 6
            })
            // One failed attempt at the group: the same note on each delivery.
            #expect(try await stack.count("""
                SELECT count(DISTINCT response_excerpt) FROM delivery_attempts WHERE attempt = 1 AND outcome = 'failed'
                  AND response_excerpt LIKE 'sent in digest % with 6 deliveries'
                """) == 1)
            try await TestSMTPServer.with(port: port) { smtp async throws in
                #expect(try await eventually(timeout: .seconds(30)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 6
                })
                try await Task.sleep(for: .seconds(1))
                let mails = try smtp.messages()
                #expect(mails.count == 1, "\(mails.map { $0.header("Subject") ?? "" })")
                let body = Self.body(try #require(mails.first))
                #expect(ids.allSatisfy { body.contains($0) })
                // Every delivery's attempts moved together: each failed ones, then one delivered by the same email.
                #expect(try await stack.count("""
                    SELECT count(DISTINCT (attempts, delivered_at)) FROM deliveries WHERE state = 'delivered' AND attempts >= 2
                    """) == 1)
            }
            #expect(await worker.stop() == 0)
        }
    }
}
