import Foundation
import RelayModel
import Testing

/// `silences add`, `list` and `expire` through the binary: what they store, print and refuse.
@Suite("Silences commands", .timeLimit(.minutes(2)))
struct SilencesCommandTests {
    @Test func addListAndExpireASilence() async throws {
        try await TestDatabase.with { db async throws in
            let env = CommandLineTests.environment(db, ["USER": "ann"])
            let added = try await CommandLineTests.run(["silences", "add", "--rule", "partner", "--match", "brand=nike", "--match", "brand=adidas",
                                                        "--match", "transition=result.final", "--reason", "partner down", "--for", "2h"], env: env)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("silence 1 until "))

            let listed = try await CommandLineTests.run(["silences", "list", "--active"], env: env)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("active"))
            #expect(listed.stdout.contains("transition=result.final brand=nike"), "the table shortens long cells")
            #expect(listed.stdout.contains("cli (ann)"))

            let json = try await CommandLineTests.run(["silences", "list", "--json"], env: env)
            let array = try #require(try JSONValue.parse(Array(json.stdout.utf8)).arrayValue)
            #expect(array.first?["matchers"]?["brand"]?.arrayValue == [.string("nike"), .string("adidas")])

            let expired = try await CommandLineTests.run(["silences", "expire", "1"], env: env)
            #expect(expired.status == 0, "\(expired.stderr)")
            let again = try await CommandLineTests.run(["silences", "expire", "1"], env: env)
            #expect(again.status != 0)
            #expect(again.stderr.contains("had already ended"))
            let after = try await CommandLineTests.run(["silences", "list"], env: env)
            #expect(after.stdout.contains("expired"))
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM silences WHERE expired_by = 'cli (ann)'") == 1)
        }
    }

    @Test func refusesWhatASilenceCannotBe() async throws {
        try await TestDatabase.with { db async throws in
            let env = CommandLineTests.environment(db)
            for (arguments, message) in [
                (["--rule", "p", "--reason", "r"], "--until/--for: required"),
                (["--rule", "p", "--reason", "r", "--until", "2001-01-01T00:00:00Z"], "must be in the future"),
                (["--rule", "p", "--reason", "r", "--for", "soon"], "--for: must be a duration"),
                (["--match", "colour=red", "--reason", "r", "--for", "1h"], "--match colour: unknown field"),
                (["--match", "brand", "--reason", "r", "--for", "1h"], "expected FIELD=VALUE"),
                (["--reason", "r", "--for", "1h"], "a silence needs a rule or at least one field"),
            ] {
                let run = try await CommandLineTests.run(["silences", "add"] + arguments, env: env)
                #expect(run.status != 0, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM silences") == 0)
        }
    }

    /// With a rules file set, `--rule` must name one of its rules (a misspelt one would silence nothing).
    @Test func refusesARuleTheRulesFileDoesNotHave() async throws {
        try await TestDatabase.with { db async throws in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("silence-rules-\(UUID().uuidString).yaml")
            try """
                rules:
                  - name: partner
                    when: {transition: [result.final]}
                    notify:
                      - email: {to: ops@example.com, subject: "{{entrupy_id}}", text: "final"}
                """.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let env = CommandLineTests.environment(db, ["ENTRUPY_RELAY_RULES_FILE": file.path])
            let refused = try await CommandLineTests.run(["silences", "add", "--rule", "partnr", "--reason", "r", "--for", "1h"], env: env)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains(#"--rule: no rule named "partnr" in the rules file (its rules: partner)"#), "\(refused.stderr)")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM silences") == 0)
            let made = try await CommandLineTests.run(["silences", "add", "--rule", "partner", "--reason", "r", "--for", "1h"], env: env)
            #expect(made.status == 0, "\(made.stderr)")
        }
    }
}
