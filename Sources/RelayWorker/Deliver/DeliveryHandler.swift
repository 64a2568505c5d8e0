import Foundation
public import Logging
import Metrics
public import RelayModel
public import RelayQueue
import RelayRuntime
import Tracing

/// Runs `deliver` jobs: one attempt at one delivery. The attempt and the delivery's new state
/// (`DeliveryDecision`) are recorded through `DeliveryOutcomeRecording`, which writes them
/// with the job's outcome in one statement: delivered or dead completes the job; failed
/// reschedules it for the next attempt. A redrive starts a new job
/// (`PostgresDeliveryStore.retry`).
public struct DeliveryHandler: JobHandler {
    /// A claimed batch's deliveries load in one query, not one each.
    let loader: CoalescingLoader<Int64, DeliveryRecord>
    /// Where an email group is locked and settled: the deliveries' store, when it can.
    let groups: (any EmailGroupSending)?
    let email: (any DeliverySending)?
    let callbacks: any DeliverySending
    let schedule: RetrySchedule
    let limiter: TargetLimiter
    /// Targets' shared health: nil runs without a breaker.
    let targets: (any TargetHealthTracking)?
    let breaker: TargetBreaker
    let healthCache = TargetHealthCache()
    /// Where delivery.dead is recorded, and what the rules send for an operational transition.
    let operations: (any OperationalRecording)?
    let alerts: @Sendable (OperationalEvent) -> [PlannedDelivery]
    /// Where the run's outcome is written: with the job's finish, in one statement.
    let outcomes: any DeliveryOutcomeRecording
    let workerID: String
    let logger: Logger
    /// Silences and quiet hours (`pausing(_:)`); nil checks neither.
    var pauses: DeliveryPauses?
    /// Targets' rate limits (`throttled(by:)`); nil throttles none.
    var throttle: DeliveryThrottle?

    /// A held delivery's job sleeps this long (jittered): a probe or the drain wakes it
    /// sooner; this only bounds how long a hold can outlive a lost wake-up.
    public static let holdRecheck = Duration.seconds(3_600)

    /// - Parameter email: nil when SMTP is not configured: email deliveries fail (and retry)
    ///   with a message saying so.
    public init(deliveries: any DeliveryLoading, email: (any DeliverySending)?, callbacks: any DeliverySending,
                schedule: RetrySchedule, limiter: TargetLimiter, targets: (any TargetHealthTracking)? = nil,
                breaker: TargetBreaker = TargetBreaker(policy: .standard), operations: (any OperationalRecording)? = nil,
                alerts: @escaping @Sendable (OperationalEvent) -> [PlannedDelivery] = { _ in [] }, outcomes: any DeliveryOutcomeRecording,
                workerID: String, logger: Logger) {
        self.loader = CoalescingLoader { ids in try await deliveries.deliveries(ids: ids) }
        self.groups = deliveries as? any EmailGroupSending
        self.email = email
        self.callbacks = callbacks
        self.schedule = schedule
        self.limiter = limiter
        self.targets = targets
        self.breaker = breaker
        self.operations = operations
        self.alerts = alerts
        self.outcomes = outcomes
        self.workerID = workerID
        self.logger = logger
    }

    /// One attempt at the delivery, in three steps: the target's breaker admits it (or holds
    /// it), the attempt is made, and the decision on it is recorded. What the run writes
    /// (the attempt or the hold, and the delivery's new state) goes through `outcomes`: the
    /// worker commits it with the job's finish, in one statement, once this returns.
    public func run(_ args: DeliverJob, context: JobContext) async throws -> JobResult {
        guard let delivery = try await loader.load(args.deliveryID) else { return .completed }
        guard delivery.state == .pending || delivery.state == .failed else { return .completed }
        if let silenced = try await silence(delivery) { return silenced }
        if let held = quietHold(delivery) { return held }
        if let held = orderHold(delivery) { return held }
        if let wait = Self.groupWait(of: delivery) { return .snooze(wait) }

        let (key, target) = TargetKey.keys(of: delivery)
        let admitted: (health: TargetHealth?, probe: Bool)
        switch try await admission(of: delivery, key: key) {
        case .attempt(let health, let probe): admitted = (health, probe)
        case .hold(let heldKey):
            MetricHandles.counter(.deliveriesHeld, [("channel", delivery.channel.rawValue)]).increment()
            // Written with the job's snooze: the delivery shows which target holds it.
            return outcomes.finish(.snooze(Self.holdRecheck * Double.random(in: 0.9...1.1)), recordingHoldOf: delivery.id, by: heldKey)
        }

        guard await limiter.acquire(target) else {
            return .snooze(.milliseconds(Int64.random(in: 300...700)))
        }
        defer { limiter.release(target) }
        if let snoozed = try await awaitThrottleSlot(delivery, key: key) { return snoozed }
        if let grouped = try await attemptGroup(delivery, key: key, health: admitted.health, probe: admitted.probe) { return grouped }
        return try await attemptAndDecide(delivery, key: key, health: admitted.health, probe: admitted.probe)
    }

    /// Step 1: what the target's breaker lets this delivery do now. An alert about the relay's
    /// own deliveries is never held by a breaker: an open target must not silence the message
    /// that it is open. A healthy target's cached row admits; held or probing is decided on the
    /// row as it is now.
    func admission(of delivery: DeliveryRecord, key: String) async throws -> DeliveryAdmission {
        guard let targets, !delivery.isOperational else { return .attempt(health: nil, probe: false) }
        let current: TargetHealth?, now: Date
        if let cached = healthCache.cached(key), cached.0.map({ $0.state == .healthy }) ?? true {
            (current, now) = cached
        } else {
            (current, now) = try await targets.health(key: key)
            healthCache.store(key, health: current, databaseNow: now)
        }
        var admission = breaker.admission(current, deliveryID: delivery.id, now: now)
        // Held, it waits for the drain (which clears held_since), so a backlog leaves at the drain's rate;
        // unless no drain would release it: held under another key (an origin, before 0033) or by no row.
        // The row may be the endpoint's host, which an operator disabled whole: held under its key.
        let heldKey = current?.key ?? key
        if admission == .attempt, delivery.heldSince != nil, current != nil, delivery.heldBy == heldKey { admission = .hold }
        switch admission {
        case .attempt: return .attempt(health: current, probe: false)
        case .probe: return .attempt(health: current, probe: true)
        case .hold: return .hold(target: heldKey)
        }
    }

    /// Steps 2 and 3: the attempt, what it says of its target, and the decision on the
    /// delivery (`DeliveryDecision`), returned as the job's result that records the attempt:
    /// failed reschedules the job for the next attempt; delivered or dead completes it.
    func attemptAndDecide(_ delivery: DeliveryRecord, key: String, health: TargetHealth?, probe: Bool) async throws -> JobResult {
        let startedAt = Date()
        let number = delivery.attempts + 1
        let (report, elapsed) = await attempt(delivery, number: number)
        await recordHealth(report, key: key, before: health, probe: probe, delivery: delivery)

        let decision = DeliveryDecision.after(report, attemptInRound: number - delivery.scheduleBase, schedule: schedule)
        let attempt = DeliveryAttempt(
            attempt: number, startedAt: startedAt, durationMilliseconds: Int(clamping: elapsed.milliseconds),
            outcome: decision.state, statusCode: report.statusCode, smtpReply: report.smtpReply, error: report.error,
            responseExcerpt: report.excerpt, worker: workerID)
        log(decision, of: delivery, attempt: number, error: report.error, elapsed: elapsed)
        let outcome: JobOutcome
        switch decision.state {
        case .failed:
            outcome = .snooze(decision.retryIn ?? .seconds(1))
        case .delivered:
            outcome = .completed
        case .dead, .pending, .silenced:
            try await recordDead(delivery, attempts: number, error: report.error, key: key)
            outcome = .completed
        }
        // Written with the job's finish, in one statement, once this handler returns.
        return outcomes.finish(outcome, recordingAttempt: attempt, of: delivery.id, retryIn: decision.retryIn,
                               ownFailure: report.result != .delivered && report.cause == .delivery)
    }

    /// The decision's metrics and log line.
    private func log(_ decision: DeliveryDecision, of delivery: DeliveryRecord, attempt number: Int, error: String?, elapsed: Duration) {
        MetricHandles.counter(.deliveries, [("channel", delivery.channel.rawValue), ("outcome", decision.state.rawValue)]).increment()
        MetricHandles.timer(.deliveryDuration, [("channel", delivery.channel.rawValue)])
            .record(duration: elapsed)
        let metadata: Logger.Metadata = [
            "delivery_id": "\(delivery.id)", "entrupy_id": "\(delivery.entrupyID ?? "-")", "rule": "\(delivery.rule)",
            "channel": "\(delivery.channel.rawValue)", "state": "\(decision.state.rawValue)", "attempt": "\(number)",
        ]
        switch decision.state {
        case .failed:
            logger.warning("delivery attempt failed", metadata: metadata.merging(["error": "\(error ?? "-")"]) { $1 })
        case .delivered:
            logger.info("delivered", metadata: metadata)
        case .dead, .pending, .silenced:
            logger.error("delivery is dead", metadata: metadata.merging(["error": "\(error ?? "-")"]) { $1 })
        }
    }

    /// One attempt, as a client span of the job's trace (the target as deliveries show it:
    /// masked), within which a callback's traceparent is taken.
    func attempt(_ delivery: DeliveryRecord, number: Int) async -> (AttemptReport, Duration) {
        await withSpan("delivery.attempt", ofKind: .client) { span in
            span.attributes["delivery.id"] = Int(delivery.id)
            span.attributes["delivery.rule"] = delivery.rule
            span.attributes["delivery.channel"] = delivery.channel.rawValue
            span.attributes["delivery.target"] = delivery.target
            span.attributes["delivery.attempt"] = number
            let clock = ContinuousClock.now
            let report: AttemptReport
            switch delivery.channel {
            case .email:
                report = await email?.deliver(delivery)
                    ?? AttemptReport(result: .transient, error: "ENTRUPY_RELAY_SMTP_URL and ENTRUPY_RELAY_SMTP_FROM are not set: email cannot be sent",
                                     cause: .delivery)
            case .webhook:
                report = await callbacks.deliver(delivery)
            }
            let outcome = switch report.result { case .delivered: "delivered"; case .transient: "failed"; case .permanent: "refused" }
            span.attributes["delivery.outcome"] = outcome
            if let status = report.statusCode { span.attributes["http.response.status_code"] = status }
            if report.result != .delivered { span.setStatus(SpanStatus(code: .error, message: report.error)) }
            return (report, ContinuousClock.now - clock)
        }
    }

    /// What the attempt says of its target, recorded under the target's lock. A success on a
    /// target with nothing counted writes nothing. A failure counts only when it is the
    /// target's (`FailureCause`): one that is this delivery's alone (a 4xx judging the message,
    /// 410, a refused recipient, the relay's own configuration) counts nothing, and as a probe
    /// it only frees the probe's claim. A failure to record is logged: the attempt itself must
    /// still be written with the job.
    func recordHealth(_ report: AttemptReport, key: String, before: TargetHealth?, probe: Bool, delivery: DeliveryRecord) async {
        guard let targets, !delivery.isOperational else { return }
        let outcome: TargetBreaker.Outcome
        switch (report.result, report.cause) {
        case (.delivered, _):
            if !probe, before?.isClean ?? true { return }
            outcome = .success
        case (_, .delivery):
            guard probe else { return }
            outcome = .inconclusive
        case (_, .target):
            outcome = .failure(report.error ?? report.statusCode.map { "HTTP \($0)" } ?? "failed")
        }
        do {
            let (health, change) = try await targets.record(outcome, key: key, probe: probe, breaker: breaker, alerts: alerts)
            healthCache.store(key, health: health, databaseNow: Date())
            guard let change else { return }
            MetricHandles.counter(.targetChanges, [("change", change.rawValue)]).increment()
            logger.warning("target \(change.rawValue.dropFirst("target.".count))", metadata: [
                "target": "\(key)", "state": "\(health.state.rawValue)", "consecutive_failures": "\(health.consecutiveFailures)",
                "delivery_id": "\(delivery.id)", "error": "\(health.lastError ?? "-")",
            ])
        } catch {
            logger.warning("target health not recorded", metadata: ["target": "\(key)", "error": "\(String(reflecting: error))"])
        }
    }

    /// `delivery.dead`, with the alerts the rules plan for it, recorded before the attempt that
    /// killed the delivery is (with the job): should that write fail, the attempt is made again
    /// and the alert may be sent twice, never lost. An alert's own death raises none.
    func recordDead(_ delivery: DeliveryRecord, attempts: Int, error: String?, key: String) async throws {
        guard let operations, !delivery.isOperational else { return }
        var dead = delivery
        dead.state = .dead
        dead.attempts = attempts
        dead.lastError = error
        let event = OperationalEvent(kind: .deliveryDead, occurredAt: Date(), target: key, error: error, delivery: dead)
        try await operations.record(event, deliveries: alerts(event))
    }
}
