import Foundation
import RelayModel
import RelayRules
import Testing

/// Issue 46: email grouping and digests — the rules keys, the group a delivery joins, the
/// digest's text and the daily schedule across daylight saving changes.
@Suite("Email grouping and digests: the rules keys, the digest, the schedule")
struct DigestTests {
    let parser = RuleSetParser(secret: { _ in nil })

    func rules(_ email: String) throws(RuleSetError) -> RuleSet {
        try parser.parse("""
            rules:
              - name: finals
                notify:
                  - email:
                      to: [support@example.com]
                      subject: "{{entrupy_id}} is {{result}}"
                      text: "{{entrupy_id}} ({{brand}}) is {{result}}"
            \(email)
            """)
    }

    func problems(_ email: String) -> [RuleProblem] {
        do {
            _ = try rules(email)
            return []
        } catch {
            return error.problems
        }
    }

    func grouping(_ email: String) throws -> EmailGrouping? {
        guard case .email(let action)? = try rules(email).rules.first?.actions.first else { return nil }
        return action.grouping
    }

    @Test func readsGroupWaitAndDigest() throws {
        let wait = try #require(try grouping("          group_by: [rule, brand]\n          group_wait: 10m"))
        #expect(wait.groupBy == ["rule", "brand"])
        #expect(wait.timing == .wait(seconds: 600))
        let digest = try #require(try grouping("""
                      group_by: brand
                      digest: {at: "08:00", time_zone: Europe/Paris}
                      digest_subject: "{{count}} {{brand}} items today"
            """))
        guard case .digest(let schedule) = digest.timing else { Issue.record("expected a digest"); return }
        #expect(schedule.hour == 8 && schedule.minute == 0 && schedule.timeZone.identifier == "Europe/Paris")
        #expect(digest.subject?.source == "{{count}} {{brand}} items today")
        #expect(try grouping("") == nil, "no grouping key: sent alone")
        // Unquoted, YAML 1.1 would read 08:30 as a number of minutes: the text is what counts.
        let unquoted = try #require(try grouping("          digest: {at: 08:30}"))
        #expect(unquoted.timing == .digest(try #require(DigestSchedule(at: "08:30", timeZone: "UTC"))))
    }

    /// The planner puts the group in the email's payload; an action without one plans none.
    @Test func thePlannerStoresTheGroupInThePayload() throws {
        let rules = try rules("          group_by: [brand]\n          group_wait: 90")
        let item = EntrupyItem(entrupyID: "E1", customerItemID: "sku-1", result: "authentic", resultFinal: true, brand: "Gucci")
        let planned = DeliveryPlanner.plan(rules: rules, item: item, transitions: [Transition(kind: .resultFinal, from: nil, to: "authentic")],
                                           occurredAt: Date())
        guard case .email(let email)? = planned.first?.payload else { Issue.record("no email planned"); return }
        #expect(email.group?.values == ["brand": "Gucci"] && email.group?.timing == .wait(seconds: 90))
        #expect(DeliveryPayload(stored: planned[0].payload.json, channel: .email) == planned[0].payload, "the stored form reads back")
        let alone = DeliveryPlanner.plan(rules: try self.rules(""), item: item, transitions: [Transition(kind: .resultFinal, from: nil, to: "authentic")],
                                         occurredAt: Date())
        guard case .email(let plain)? = alone.first?.payload else { Issue.record("no email planned"); return }
        #expect(plain.group == nil && alone[0].payload.json["group"] == nil)
    }

    /// Hostile values are refused with their line and field.
    @Test func refusesHostileValues() {
        let cases: [(String, String)] = [
            ("          group_wait: 10m\n          digest: {at: \"08:00\"}", "not both"),
            ("          group_wait: -5m", "not a duration"),
            ("          group_wait: 100000h", "out of range"),
            ("          group_wait: 9999999999s", "not a duration"),
            ("          group_wait: 10 minutes", "not a duration"),
            ("          group_wait: 25h", "out of range"),
            ("          group_wait: 0s", "out of range"),
            ("          digest: {at: \"25:00\", time_zone: UTC}", "not a time of day"),
            ("          digest: {at: \"8:00\", time_zone: UTC}", "not a time of day"),
            ("          digest: {at: \"08:00\", time_zone: Mars/Olympus}", "not a named time zone"),
            ("          digest: {at: \"08:00\", time_zone: ../../etc/passwd}", "not a named time zone"),
            ("          digest: {at: \"08:00\", time_zone: CET}", "not a named time zone"),
            ("          digest: {at: \"08:00\", every: week}", "unknown key"),
            ("          group_by: [colour]\n          group_wait: 1m", "unknown name \"colour\""),
            ("          group_by: [brand, brand]\n          group_wait: 1m", "named twice"),
            ("          group_by: [brand]", "needs group_wait"),
            ("          group_wait: 1m\n          digest_subject: \"{{entrupy_id}}\"", "differs within a group"),
        ]
        for (yaml, message) in cases {
            let found = problems(yaml)
            #expect(found.contains { $0.message.contains(message) && $0.line != nil && $0.field.hasPrefix("notify[0].email") },
                    "\(yaml): \(found)")
        }
    }

    @Test func theShippedExampleParses() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/rules/digest.yaml").path
        let rules = try parser.parse(try String(contentsOfFile: path, encoding: .utf8))
        let timings = rules.rules.compactMap { rule -> EmailGroupTiming? in
            guard case .email(let email)? = rule.actions.first else { return nil }
            return email.grouping?.timing
        }
        #expect(timings.count == 2)
        #expect(timings.first == .wait(seconds: 600))
    }

    @Test func theGroupKeyIsTheRuleActionRecipientsAndValues() throws {
        let grouping = try #require(try grouping("          group_by: [rule, brand]\n          group_wait: 10m"))
        let gucci = grouping.group(rule: "finals", actionIndex: 0, to: ["a@x.example"], values: ["brand": "Gucci", "entrupy_id": "E1"])
        let gucci2 = grouping.group(rule: "finals", actionIndex: 0, to: ["a@x.example"], values: ["brand": "Gucci", "entrupy_id": "E2"])
        let prada = grouping.group(rule: "finals", actionIndex: 0, to: ["a@x.example"], values: ["brand": "Prada", "entrupy_id": "E1"])
        let otherAction = grouping.group(rule: "finals", actionIndex: 1, to: ["a@x.example"], values: ["brand": "Gucci"])
        #expect(gucci.key == gucci2.key)
        #expect(gucci.key != prada.key && gucci.key != otherAction.key)
        #expect(gucci.values == ["brand": "Gucci"] && gucci.label == "brand=Gucci")
        #expect(EmailGroup(stored: gucci.json) == gucci, "the stored form reads back")
    }

    @Test func theDigestListsEveryTransition() throws {
        let group = EmailGroup(key: "k", values: ["brand": "Gucci"], timing: .wait(seconds: 60), subject: "{{count}} {{brand}} for {{rule}}")
        let entries = (1...3).map { DeliveryPayload.Email(to: ["s@x.example"], subject: "E\($0)", text: "E\($0) is authentic\nsecond line",
                                                          html: $0 == 2 ? "<b>E2</b>" : nil, group: group) }
        let digest = try #require(DigestComposer.compose(rule: "finals", entries: entries))
        #expect(digest.subject == "3 Gucci for finals")
        #expect(digest.to == ["s@x.example"])
        #expect(digest.text.hasPrefix("3 notifications from rule finals (brand=Gucci):\n\n1. E1 is authentic\n   second line"))
        #expect(digest.text.contains("3. E3 is authentic"))
        let html = try #require(digest.html)
        #expect(html.contains("<li><b>E2</b></li>") && html.contains("<li><pre>E1 is authentic\nsecond line</pre></li>"))
        let plain = EmailGroup(key: "k", values: [:], timing: .wait(seconds: 60))
        let two = entries.prefix(2).map { var entry = $0; entry.group = plain; entry.html = nil; return entry }
        let untitled = try #require(DigestComposer.compose(rule: "r", entries: two))
        #expect(untitled.subject == "2 notifications from rule r" && untitled.html == nil)
        #expect(DigestComposer.compose(rule: "r", entries: Array(entries.prefix(1)))?.subject == "E1", "one alone goes as it was")
    }

    /// 08:00 in Paris is 07:00 UTC in winter and 06:00 UTC in summer: the day the clocks go
    /// forward (29 March 2026) is 23 hours long, the day they go back (25 October) 25.
    @Test func theDigestTimeFollowsTheZonesClocksAcrossDaylightSaving() throws {
        let schedule = try #require(DigestSchedule(at: "08:00", timeZone: "Europe/Paris"))
        func utc(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }
        #expect(schedule.next(after: try utc("2026-03-28T07:00:00Z")) == (try utc("2026-03-29T06:00:00Z")))
        #expect(schedule.next(after: try utc("2026-03-29T05:59:59Z")) == (try utc("2026-03-29T06:00:00Z")))
        #expect(schedule.next(after: try utc("2026-10-24T06:00:00Z")) == (try utc("2026-10-25T07:00:00Z")))
        #expect(schedule.next(after: try utc("2026-12-01T07:00:00Z")) == (try utc("2026-12-02T07:00:00Z")), "strictly after")
        // 02:30 does not exist in Paris on 29 March 2026: the first moment after the gap.
        let gap = try #require(DigestSchedule(at: "02:30", timeZone: "Europe/Paris"))
        let inGap = gap.next(after: try utc("2026-03-28T12:00:00Z"))
        #expect(inGap == (try utc("2026-03-29T01:00:00Z")), "03:00 CEST")
        // 01:30 happens twice in New York on 1 November 2026: the first.
        let twice = try #require(DigestSchedule(at: "01:30", timeZone: "America/New_York"))
        #expect(twice.next(after: try utc("2026-10-31T12:00:00Z")) == (try utc("2026-11-01T05:30:00Z")))
        #expect(EmailGroupTiming.wait(seconds: 600).due(createdAt: try utc("2026-03-28T07:00:00Z")) == (try utc("2026-03-28T07:10:00Z")))
    }
}
