import Foundation
import Logging
import RelayModel
import RelayQueue
import RelayStore
import RelayWorker
import Testing

/// The deliver handler's decisions on in-memory ports: which attempts it makes, what it
/// records with the job's outcome, and when it waits. No database, no network.
@Suite("The deliver handler's decisions")
struct DeliveryHandlerTests {
    static let schedule = RetrySchedule(delays: [.seconds(5), .seconds(60)])
    static let logger = Logger(label: "delivery-handler-tests")

    static func delivery(_ id: Int64, channel: DeliveryChannel = .webhook, state: DeliveryState = .pending, attempts: Int = 0,
                         scheduleBase: Int = 0, url: String = "https://Partner.Example/hook") -> DeliveryRecord {
        let payload: DeliveryPayload = channel == .webhook
            ? .webhook(.init(url: url, headers: [], body: "{}"))
            : .email(.init(to: ["ops@example.com"], subject: "s", text: "t", html: nil))
        return DeliveryRecord(id: id, itemEventID: 1, entrupyID: "E1", rule: "r", actionIndex: 0, channel: channel,
                              target: channel == .webhook ? "https://partner.example/***" : "ops@example.com", payload: payload,
                              idempotencyKey: "dlv_\(id)", state: state, attempts: attempts, scheduleBase: scheduleBase,
                              createdAt: Date(timeIntervalSince1970: 1_780_000_000), transition: "result.final")
    }

    static func handler(_ deliveries: [DeliveryRecord], callbacks: ScriptedSender, email: ScriptedSender? = nil,
                        limiter: TargetLimiter = TargetLimiter(limit: 4)) -> DeliveryHandler {
        DeliveryHandler(deliveries: MemoryDeliveries(deliveries), email: email, callbacks: callbacks, schedule: schedule,
                        limiter: limiter, outcomes: WritesWithTheJob(), workerID: "worker-1", logger: logger)
    }

    static func run(_ handler: DeliveryHandler, _ id: Int64) async throws -> JobResult {
        try await handler.run(DeliverJob(deliveryID: id), context: JobContext(id: 100 + id, attempt: 1, maxAttempts: 25, logger: logger))
    }

    static func write(_ result: JobResult) -> DeliveryAttemptWrite? {
        result.record as? DeliveryAttemptWrite
    }

    /// The job waits as long as the recorded retry says, and that is `delay` with the
    /// schedule's jitter (±20 %).
    static func waits(_ result: JobResult, about delay: Duration) -> Bool {
        guard case .snooze(let wait) = result.outcome, write(result)?.retryIn == wait else { return false }
        return wait >= delay * 0.8 && wait <= delay * 1.2
    }

    @Test func aDeliveredCallbackCompletesTheJobAndRecordsTheAttempt() async throws {
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200, excerpt: "ok"))
        let result = try await Self.run(Self.handler([Self.delivery(1)], callbacks: callbacks), 1)
        #expect(result.outcome == .completed)
        let write = try #require(Self.write(result))
        #expect(write.deliveryID == 1)
        #expect(write.attempt.attempt == 1)
        #expect(write.attempt.outcome == .delivered)
        #expect(write.attempt.statusCode == 200)
        #expect(write.attempt.responseExcerpt == "ok")
        #expect(write.attempt.worker == "worker-1")
        #expect(write.retryIn == nil)
        #expect(callbacks.sent == [1])
    }

    /// A failure waits the schedule's delay for its attempt since the last redrive, or what
    /// the target asked for; the job is put back (a snooze spends no job attempt), with the
    /// attempt recorded.
    @Test func aFailureIsRecordedAndTheJobWaitsForTheNextAttempt() async throws {
        let callbacks = ScriptedSender(AttemptReport(result: .transient, statusCode: 500, error: "HTTP 500"))
        let handler = Self.handler([Self.delivery(1), Self.delivery(2, state: .failed, attempts: 3, scheduleBase: 2)], callbacks: callbacks)
        let first = try await Self.run(handler, 1)
        #expect(Self.waits(first, about: .seconds(5)), "\(first.outcome)")
        #expect(Self.write(first)?.attempt.outcome == .failed)
        #expect(Self.write(first)?.attempt.error == "HTTP 500")
        // Attempt 4, the second since a redrive at 2: the schedule's second wait.
        let redriven = try await Self.run(handler, 2)
        #expect(Self.write(redriven)?.attempt.attempt == 4)
        #expect(Self.waits(redriven, about: .seconds(60)), "\(redriven.outcome)")

        let limited = ScriptedSender(AttemptReport(result: .transient, statusCode: 429, retryAfter: .seconds(17)))
        let asked = try await Self.run(Self.handler([Self.delivery(3)], callbacks: limited), 3)
        #expect(asked.outcome == .snooze(.seconds(17)) && Self.write(asked)?.retryIn == .seconds(17), "the target's wait, exactly")
    }

    @Test func theLastScheduledAttemptOrARefusalIsDeadAndCompletesTheJob() async throws {
        let failing = ScriptedSender(AttemptReport(result: .transient, statusCode: 500))
        let last = try await Self.run(Self.handler([Self.delivery(1, state: .failed, attempts: 2)], callbacks: failing), 1)
        #expect(last.outcome == .completed)
        #expect(Self.write(last)?.attempt.outcome == .dead)
        #expect(Self.write(last)?.attempt.attempt == 3)

        let gone = ScriptedSender(AttemptReport(result: .permanent, statusCode: 410))
        let refused = try await Self.run(Self.handler([Self.delivery(2)], callbacks: gone), 2)
        #expect(refused.outcome == .completed)
        #expect(Self.write(refused)?.attempt.outcome == .dead)
    }

    /// A delivery already settled (or gone) is not sent again: a job that ran twice, or one
    /// left from before a redrive, completes with nothing recorded.
    @Test func aSettledOrMissingDeliveryIsNotSentAgain() async throws {
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let handler = Self.handler([Self.delivery(1, state: .delivered, attempts: 1), Self.delivery(2, state: .dead, attempts: 3)],
                                   callbacks: callbacks)
        for id: Int64 in [1, 2, 99] {
            let result = try await Self.run(handler, id)
            #expect(result.outcome == .completed)
            #expect(result.record == nil)
        }
        #expect(callbacks.sent.isEmpty)
    }

    @Test func anEmailWithoutSMTPFailsAndSaysWhy() async throws {
        let callbacks = ScriptedSender(AttemptReport(result: .delivered))
        let result = try await Self.run(Self.handler([Self.delivery(1, channel: .email)], callbacks: callbacks), 1)
        #expect(Self.waits(result, about: .seconds(5)), "\(result.outcome)")
        #expect(Self.write(result)?.attempt.error == "ENTRUPY_RELAY_SMTP_URL and ENTRUPY_RELAY_SMTP_FROM are not set: email cannot be sent")
        #expect(callbacks.sent.isEmpty, "an email never goes to the callback channel")

        let smtp = ScriptedSender(AttemptReport(result: .delivered, smtpReply: "250 ok"))
        let sent = try await Self.run(Self.handler([Self.delivery(2, channel: .email)], callbacks: callbacks, email: smtp), 2)
        #expect(Self.write(sent)?.attempt.smtpReply == "250 ok")
        #expect(smtp.sent == [2])
    }

    /// A target at its cap: the job waits a moment and tries again, with no attempt made or
    /// recorded. Callbacks are capped per host (any case), email per SMTP server.
    @Test func aTargetAtItsCapMakesTheJobWaitWithoutAnAttempt() async throws {
        let limiter = TargetLimiter(limit: 1, patience: .milliseconds(10))
        #expect(await limiter.acquire("http:partner.example"))
        let callbacks = ScriptedSender(AttemptReport(result: .delivered))
        let handler = Self.handler([Self.delivery(1), Self.delivery(2, url: "https://other.example/hook")], callbacks: callbacks, limiter: limiter)
        let waiting = try await Self.run(handler, 1)
        guard case .snooze(let wait) = waiting.outcome else { Issue.record("\(waiting.outcome)"); return }
        #expect(wait >= .milliseconds(300) && wait <= .milliseconds(700))
        #expect(waiting.record == nil)
        #expect(try await Self.run(handler, 2).outcome == .completed, "another host is not held up")
        #expect(callbacks.sent == [2])
        limiter.release("http:partner.example")
        #expect(try await Self.run(handler, 1).outcome == .completed)
        #expect(callbacks.sent == [2, 1])
    }
}
