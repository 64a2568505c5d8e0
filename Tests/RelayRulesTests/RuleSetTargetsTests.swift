import Foundation
import RelayModel
import RelayRules
import Testing

/// The rules file's `targets:` list: rate limits per target, every hostile value refused with
/// its line.
@Suite("Rules file targets")
struct RuleSetTargetsTests {
    let parser = RuleSetParser(secret: { _ in nil })

    static let rules = """
        rules:
          - name: partner
            notify:
              - webhook: {url: "https://partner.example/hook", secret: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw}
        """

    func problems(_ targets: String) -> [RuleProblem] {
        do {
            _ = try parser.parse(Self.rules + "\n" + targets)
            return []
        } catch {
            return error.problems
        }
    }

    func oneTarget(rate: String) -> [RuleProblem] {
        problems("targets:\n  - url: https://partner.example\n    rate_limit: \(rate)\n")
    }

    @Test func readsRateLimitsByOriginAndSMTP() throws {
        let set = try parser.parse(Self.rules + """

            targets:
              - url: HTTPS://Partner.Example:443/
                rate_limit: 5/s
              - url: http://10.0.0.5:8080
                rate_limit: 0.5/s
              - url: smtp
                rate_limit: 30/m
            """)
        #expect(set.rateLimits.count == 3)
        #expect(set.rateLimits["https://partner.example"] == TargetRateLimit(count: 5, unit: .second))
        #expect(set.rateLimits["http://10.0.0.5:8080"]?.text == "0.5/s")
        #expect(set.rateLimits["smtp"]?.text == "30/m")
        // Looked up by a delivery's breaker key: an endpoint's key by its origin's.
        #expect(set.rateLimit(of: TargetKey.endpoint(of: "https://partner.example/hook?x=1"))?.text == "5/s")
        #expect(set.rateLimit(of: "https://partner.example")?.text == "5/s")
        #expect(set.rateLimit(of: "smtp")?.text == "30/m")
        #expect(set.rateLimit(of: TargetKey.endpoint(of: "https://other.example/hook")) == nil)
        #expect(set.rateLimit(of: "http://partner.example") == nil, "another scheme is another origin")
        #expect(try parser.parse(Self.rules).rateLimits.isEmpty, "no targets: list limits nothing")
        #expect(try parser.parse(Self.rules + "\ntargets: []\n").rateLimits.isEmpty)
    }

    @Test func hostileRatesAreRefusedWithTheirLine() {
        let refused = ["0/s", "0.0/m", "-5/s", "+5/s", "5", "5/h", "5/S", "5/ s", "5 /s", "/s", "5/", "five/s", "1e3/s", "0x10/s",
                       "inf/s", "nan/s", ".5/s", "5./s", "1.2.3/s", "5/s/s", "1001/s", "60001/m", "0.0001/s", "0.01/m",
                       "99999999999999999999/s", "\"\"", "[5/s]", "{n: 5}", "~", "5/second", "5/sec"]
        for rate in refused {
            let found = oneTarget(rate: rate)
            #expect(found.count == 1, "\(rate): \(found)")
            #expect(found.first?.field == "targets[0].rate_limit", "\(rate): \(found)")
            #expect(found.first?.line == 7, "\(rate): \(found)")
            #expect(found.first?.rule == nil)
        }
        #expect(oneTarget(rate: "0/s").first?.message.contains("more than 0") == true)
        #expect(oneTarget(rate: "2000/s").first?.message.contains("at most 1000/s") == true)
        #expect(oneTarget(rate: "1/h").first?.message.contains("5/s or 30/m") == true)
        #expect(oneTarget(rate: "0.001/m").first?.message.contains("at least one an hour") == true)
        for rate in ["1000/s", "60000/m", "0.0167/m", "1/m", "0.5/s", " 5/s ", "007/s", "2.25/s"] {
            #expect(oneTarget(rate: "\"\(rate)\"").isEmpty, "\(rate)")
        }
    }

    @Test func targetsNamedBadlyAreRefused() {
        let refused = ["partner.example", "ftp://partner.example", "https://", "https://partner.example/hook", "https://partner.example?x=1",
                       "https://user:pw@partner.example", "https://partner.example/#frag", "smtp://mail.example", "\"\"", "[a]", "~",
                       String(repeating: "a", count: 400)]
        for url in refused {
            let found = problems("targets:\n  - url: \(url)\n    rate_limit: 5/s\n")
            #expect(found.count == 1 && found.first?.field == "targets[0].url" && found.first?.line == 6, "\(url): \(found)")
        }
        #expect(problems("targets:\n  - url: https://partner.example/hook\n    rate_limit: 5/s\n").first?.message
            .contains("such as https://partner.example") == true)
        let twice = problems("""
            targets:
              - {url: "https://partner.example", rate_limit: 5/s}
              - {url: "https://PARTNER.example:443", rate_limit: 1/s}
            """)
        #expect(twice.map(\.field) == ["targets[1].url"] && twice.first?.message.contains("first on line 6") == true, "\(twice)")
        #expect(problems("targets:\n  - url: smtp\n").map(\.field) == ["targets[0].rate_limit"])
        #expect(problems("targets:\n  - rate_limit: 5/s\n").map(\.field) == ["targets[0].url"])
        #expect(problems("targets:\n  - {url: smtp, rate_limit: 5/s, burst: 3}\n").map(\.field) == ["targets[0].burst"])
        #expect(problems("targets: {url: smtp}\n").map(\.field) == ["targets"])
        #expect(problems("targets: 5/s\n").map(\.field) == ["targets"])
        #expect(problems("targets:\n  - smtp\n").map(\.field) == ["targets[0]"])
        #expect(problems("targets:\n").isEmpty, "an empty targets: limits nothing")
    }

    /// `targets list`, the API and the console: each target with its origin's limit, and a limited
    /// target without a row listed after the rest.
    @Test func listedTargetsShowTheirRateLimits() throws {
        let set = try parser.parse(Self.rules + "\ntargets:\n  - {url: 'https://partner.example', rate_limit: 5/s}\n"
            + "  - {url: smtp, rate_limit: 10/m}\n")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let endpoint = TargetKey.endpoint(of: "https://partner.example/hook")
        let stored = [TargetSummary(health: TargetHealth(id: 4, key: endpoint, state: .open, stateSince: now), held: 3, oldestHeldSince: now),
                      TargetSummary(health: TargetHealth(id: 5, key: "https://other.example", stateSince: now), held: 0, oldestHeldSince: nil)]
        let listed = set.withRateLimits(stored, now: now)
        #expect(listed.map(\.health.key) == [endpoint, "https://other.example", "https://partner.example", "smtp"])
        #expect(listed.map { $0.rateLimit?.text } == ["5/s", nil, "5/s", "10/m"])
        #expect(listed[2].health.id == nil && listed[2].health.state == .healthy && listed[2].held == 0)
        #expect(RuleSet.empty.withRateLimits(stored) == stored)
    }
}
