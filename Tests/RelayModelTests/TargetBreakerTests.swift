import Foundation
import RelayModel
import Testing

/// The circuit breaker's state machine, pure: when it opens, how it probes, when it gives up.
@Suite("Target breaker")
struct TargetBreakerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let policy = BreakerPolicy(consecutiveFailures: 3, failureRate: 0.5, window: .seconds(60), minimumAttempts: 10,
                                      firstProbe: .seconds(10), longestProbeWait: .seconds(35), disableAfter: .seconds(3_600), drainPerSecond: 5)
    let breaker = TargetBreaker(policy: Self.policy)

    func at(_ seconds: Double) -> Date { Self.start.addingTimeInterval(seconds) }

    /// Applies outcomes one a second from `from`; returns the health and the changes seen.
    func run(_ outcomes: [TargetBreaker.Outcome], on health: TargetHealth, from: Double = 0,
             probe: Bool = false) -> (TargetHealth, [TargetChange]) {
        var current = health, changes: [TargetChange] = []
        for (index, outcome) in outcomes.enumerated() {
            let (next, change) = breaker.record(outcome, on: current, probe: probe, now: at(from + Double(index)))
            current = next
            if let change { changes.append(change) }
        }
        return (current, changes)
    }

    var fresh: TargetHealth { .healthy(key: "https://partner.example", at: Self.start) }

    @Test func opensAfterConsecutiveFailuresAndSchedulesTheFirstProbe() {
        let (health, changes) = run([.failure("500"), .failure("500"), .failure("timeout")], on: fresh)
        #expect(changes == [.opened])
        #expect(health.state == .open)
        #expect(health.stateSince == at(2))
        #expect(health.failingSince == at(0))
        #expect(health.lastError == "timeout")
        #expect(health.nextProbeAt == at(12))
        #expect(health.probeWait == .seconds(10))
    }

    @Test func aSuccessBetweenFailuresResetsTheStreak() {
        let (health, changes) = run([.failure("500"), .failure("500"), .success, .failure("500"), .failure("500")], on: fresh)
        #expect(changes.isEmpty)
        #expect(health.state == .healthy)
        #expect(health.consecutiveFailures == 2)
        #expect(!health.isClean)
    }

    @Test func opensOnTheFailureRateOnceTheWindowHoldsEnoughAttempts() {
        // Failure, success, alternating: never three in a row, but over half of eleven attempts
        // failed. The rate is judged at a failure, once the window holds ten attempts.
        let outcomes = (0..<11).map { $0.isMultiple(of: 2) ? TargetBreaker.Outcome.failure("500") : .success }
        let (almost, none) = run(Array(outcomes.prefix(10)), on: fresh)
        #expect(none.isEmpty)
        #expect(almost.windowAttempts == 10)
        #expect(almost.windowFailures == 5)
        let (health, changes) = run(outcomes, on: fresh)
        #expect(changes == [.opened])
        #expect(health.state == .open)
    }

    @Test func theRateWindowExpires() {
        let outcomes = (0..<8).map { $0.isMultiple(of: 2) ? TargetBreaker.Outcome.failure("500") : .success }
        let (first, _) = run(outcomes, on: fresh)
        // Long after: the window starts again, so the next failures do not reach the minimum.
        let (health, changes) = run([.success, .failure("500"), .success], on: first, from: 120)
        #expect(changes.isEmpty)
        #expect(health.windowAttempts == 2)
        #expect(health.windowFailures == 1)
    }

    @Test func admissionHoldsAllButTheClaimedProbe() {
        var open = run([.failure("a"), .failure("b"), .failure("c")], on: fresh).0
        #expect(breaker.admission(nil, deliveryID: 1, now: at(0)) == .attempt)
        #expect(breaker.admission(fresh, deliveryID: 1, now: at(0)) == .attempt)
        #expect(breaker.admission(open, deliveryID: 1, now: at(20)) == .hold)
        open.probeDeliveryID = 7
        open.probeUntil = at(30)
        #expect(breaker.admission(open, deliveryID: 7, now: at(20)) == .probe)
        #expect(breaker.admission(open, deliveryID: 8, now: at(20)) == .hold)
        // A claim that lapsed (its worker died) no longer lets it through.
        #expect(breaker.admission(open, deliveryID: 7, now: at(31)) == .hold)
        var disabled = open
        disabled.state = .disabled
        #expect(breaker.admission(disabled, deliveryID: 7, now: at(20)) == .hold)
    }

    @Test func failedProbesDoubleTheWaitUpToTheLongest() {
        let open = run([.failure("a"), .failure("b"), .failure("c")], on: fresh).0
        var health = open, waits: [Duration] = []
        for n in 0..<4 {
            health = breaker.record(.failure("still down"), on: health, probe: true, now: at(100 + Double(n) * 100)).0
            waits.append(health.probeWait)
        }
        #expect(waits == [.seconds(20), .seconds(35), .seconds(35), .seconds(35)])
        #expect(health.nextProbeAt == at(400 + 35))
        #expect(health.state == .open)
        // A failure that was not the probe (an attempt under way when it opened) moves nothing.
        let stray = breaker.record(.failure("late"), on: health, probe: false, now: at(401)).0
        #expect(stray.nextProbeAt == health.nextProbeAt)
    }

    @Test func aSuccessfulProbeRecoversAndForgetsTheStreak() {
        let open = run([.failure("a"), .failure("b"), .failure("c")], on: fresh).0
        let (health, change) = breaker.record(.success, on: open, probe: true, now: at(50))
        #expect(change == .recovered)
        #expect(health.state == .healthy)
        #expect(health.stateSince == at(50))
        #expect(health.isClean)
        #expect(health.failingSince == nil)
        #expect(health.nextProbeAt == nil)
        #expect(health.lastSuccessAt == at(50))
        #expect(health.lastError == "c")
    }

    @Test func failingLongerThanTheLimitDisables() {
        let open = run([.failure("a"), .failure("b"), .failure("c")], on: fresh).0
        let (stillOpen, none) = breaker.record(.failure("down"), on: open, probe: true, now: at(3_599))
        #expect(none == nil)
        let (health, change) = breaker.record(.failure("down"), on: stillOpen, probe: true, now: at(3_600))
        #expect(change == .disabled)
        #expect(health.state == .disabled)
        #expect(health.disabledBy == "breaker")
        #expect(health.nextProbeAt == nil)
        // Disabled stays disabled, whatever an attempt already under way reports.
        let (after, nothing) = breaker.record(.success, on: health, probe: false, now: at(3_601))
        #expect(nothing == nil)
        #expect(after.state == .disabled)
        let never = TargetBreaker(policy: BreakerPolicy(consecutiveFailures: 1, disableAfter: nil))
        let (kept, _) = never.record(.failure("x"), on: never.record(.failure("x"), on: fresh, probe: false, now: at(0)).0,
                                     probe: true, now: at(1_000_000))
        #expect(kept.state == .open)
    }

    @Test func operatorsDisableAndEnable() {
        let disabled = TargetBreaker.disabled(fresh, by: "token ops", now: at(5))
        #expect(disabled.state == .disabled)
        #expect(disabled.disabledBy == "token ops")
        #expect(disabled.stateSince == at(5))
        let enabled = TargetBreaker.enabled(disabled, now: at(9))
        #expect(enabled.state == .healthy)
        #expect(enabled.isClean)
        #expect(enabled.disabledBy == nil)
    }

    @Test func targetKeysAreOrigins() {
        #expect(TargetKey.origin(of: "https://Partner.Example/hooks/a?x=1") == "https://partner.example")
        #expect(TargetKey.origin(of: "https://partner.example:443/a") == "https://partner.example")
        #expect(TargetKey.origin(of: "http://127.0.0.1:8080/a") == "http://127.0.0.1:8080")
        #expect(TargetKey.origin(of: "http://[::1]:9000/a") == "http://[::1]:9000")
        #expect(TargetKey.normalized("SMTP") == "smtp")
        // No origin: masked, never the text itself (a URL's path may be a secret).
        #expect(TargetKey.normalized("not a url") == "***")
        #expect(TargetKey.origin(of: "https://") == "https://")
        #expect(TargetKey.origin(of: "mailto:" + String(repeating: "x", count: 500)).count <= 200)
    }

    /// Issue 42, finding 2: a key is the endpoint (path included), and never shows the path.
    @Test func targetKeysAreEndpointsThatNeverShowThePath() {
        let slack = TargetKey.endpoint(of: "https://Hooks.Example.com/services/T0/B0/SECRETsecret?x=1")
        #expect(slack.hasPrefix("https://hooks.example.com/***#") && slack.count == "https://hooks.example.com/***#".count + 16)
        #expect(!slack.lowercased().contains("secret") && !slack.contains("services"))
        // The path decides; the query and fragment do not; the root is the origin.
        #expect(slack == TargetKey.endpoint(of: "https://hooks.example.com:443/services/T0/B0/SECRETsecret#f"))
        #expect(slack != TargetKey.endpoint(of: "https://hooks.example.com/services/T0/B0/other"))
        #expect(TargetKey.endpoint(of: "https://hooks.example.com/") == "https://hooks.example.com")
        #expect(TargetKey.endpoint(of: "https://hooks.example.com?x=/a") == "https://hooks.example.com")
        // SHA-256 of "/hook" (as migration 0033 computes it in SQL): 16 hex digits.
        #expect(TargetKey.endpoint(of: "http://127.0.0.1:8080/hook") == "http://127.0.0.1:8080/***#6fc2d0517addd295")
        // As an operator types it: a URL names its endpoint, a listed key itself.
        #expect(TargetKey.normalized("https://HOOKS.example.com/services/T0/B0/SECRETsecret") == slack)
        #expect(TargetKey.normalized(slack.uppercased().replacingOccurrences(of: "HTTPS", with: "https")) == slack)
        #expect(TargetKey.normalized("https://partner.example.com") == "https://partner.example.com")
        let delivery = DeliveryRecord(id: 1, itemEventID: 1, entrupyID: "e", rule: "r", actionIndex: 0, channel: .webhook,
                                      target: "https://hooks.example.com/***",
                                      payload: .webhook(.init(url: "https://hooks.example.com/services/T0/B0/SECRETsecret", headers: [], body: "{}")),
                                      idempotencyKey: "k", state: .pending, attempts: 0, scheduleBase: 0, createdAt: Date(), transition: "t")
        #expect(TargetKey.of(delivery) == slack)
    }

    @Test func anInconclusiveAttemptCountsNothingAndAProbesOnlyFreesItsClaim() {
        var open = run([.failure("a"), .failure("b"), .failure("c")], on: fresh).0
        open.probeDeliveryID = 7
        open.probeUntil = at(30)
        let (released, change) = breaker.record(.inconclusive, on: open, probe: true, now: at(20))
        #expect(change == nil)
        #expect(released.state == .open && released.consecutiveFailures == 3 && released.windowAttempts == open.windowAttempts)
        #expect(released.probeDeliveryID == nil && released.probeUntil == nil)
        #expect(released.probeWait == .seconds(10) && released.nextProbeAt == at(30))
        #expect(breaker.record(.inconclusive, on: open, probe: false, now: at(20)).0 == open)
        let healthy = run([.failure("a")], on: fresh).0
        #expect(breaker.record(.inconclusive, on: healthy, probe: false, now: at(5)).0 == healthy)
    }
}
