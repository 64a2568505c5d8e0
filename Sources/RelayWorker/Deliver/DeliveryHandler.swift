import Foundation
public import Logging
import Metrics
public import RelayCore
public import RelayQueue
import RelayRuntime
public import RelayStore

/// Runs `deliver` jobs: one attempt at one delivery. The attempt and the delivery's new state
/// (`DeliveryDecision`) are written with the job's outcome in one statement: delivered or
/// dead completes the job; failed reschedules it for the next attempt. A redrive starts a
/// new job (`PostgresDeliveryRepository.retry`).
public struct DeliveryHandler: JobHandler {
    /// A claimed batch's deliveries load in one query, not one each.
    let loader: CoalescingLoader<Int64, DeliveryRecord>
    let email: (any DeliverySending)?
    let callbacks: any DeliverySending
    let schedule: RetrySchedule
    let limiter: TargetLimiter
    let workerID: String
    let logger: Logger

    /// - Parameter email: nil when SMTP is not configured: email deliveries fail (and retry)
    ///   with a message saying so.
    public init(deliveries: any DeliveryLoading, email: (any DeliverySending)?, callbacks: any DeliverySending,
                schedule: RetrySchedule, limiter: TargetLimiter, workerID: String, logger: Logger) {
        self.loader = CoalescingLoader { ids in try await deliveries.deliveries(ids: ids) }
        self.email = email
        self.callbacks = callbacks
        self.schedule = schedule
        self.limiter = limiter
        self.workerID = workerID
        self.logger = logger
    }

    public func run(_ args: DeliverJob, context: JobContext) async throws -> JobResult {
        guard let delivery = try await loader.load(args.deliveryID) else { return .completed }
        guard delivery.state == .pending || delivery.state == .failed else { return .completed }

        let target = Self.limitKey(for: delivery)
        guard await limiter.acquire(target) else {
            return .snooze(.milliseconds(Int64.random(in: 300...700)))
        }
        defer { limiter.release(target) }

        let startedAt = Date()
        let clock = ContinuousClock.now
        let report: AttemptReport
        switch delivery.channel {
        case .email:
            report = await email?.deliver(delivery)
                ?? AttemptReport(result: .transient, error: "ENTRUPY_RELAY_SMTP_URL and ENTRUPY_RELAY_SMTP_FROM are not set: email cannot be sent")
        case .webhook:
            report = await callbacks.deliver(delivery)
        }
        let elapsed = ContinuousClock.now - clock

        let number = delivery.attempts + 1
        let decision = DeliveryDecision.after(report, attemptInRound: number - delivery.scheduleBase, schedule: schedule)
        let attempt = DeliveryAttempt(
            attempt: number, startedAt: startedAt, durationMilliseconds: Int(clamping: elapsed.milliseconds),
            outcome: decision.state, statusCode: report.statusCode, smtpReply: report.smtpReply, error: report.error,
            responseExcerpt: report.excerpt, worker: workerID)
        let write = DeliveryAttemptWrite(deliveryID: delivery.id, attempt: attempt, retryIn: decision.retryIn)

        MetricHandles.counter("relay_deliveries_total", [("channel", delivery.channel.rawValue), ("outcome", decision.state.rawValue)]).increment()
        MetricHandles.timer("relay_delivery_duration_seconds", [("channel", delivery.channel.rawValue)])
            .record(duration: elapsed)
        let metadata: Logger.Metadata = [
            "delivery_id": "\(delivery.id)", "entrupy_id": "\(delivery.entrupyID)", "rule": "\(delivery.rule)",
            "channel": "\(delivery.channel.rawValue)", "state": "\(decision.state.rawValue)", "attempt": "\(number)",
        ]
        switch decision.state {
        case .failed:
            logger.warning("delivery attempt failed", metadata: metadata.merging(["error": "\(report.error ?? "-")"]) { $1 })
            return JobResult(.snooze(decision.retryIn ?? .seconds(1)), recording: write)
        case .delivered:
            logger.info("delivered", metadata: metadata)
        case .dead, .pending:
            logger.error("delivery is dead", metadata: metadata.merging(["error": "\(report.error ?? "-")"]) { $1 })
        }
        return JobResult(.completed, recording: write)
    }

    /// Callbacks are limited per host, email per SMTP server (there is one).
    static func limitKey(for delivery: DeliveryRecord) -> String {
        switch delivery.channel {
        case .email: return "smtp"
        case .webhook:
            let url = if case .webhook(let webhook) = delivery.payload { webhook.url } else { delivery.target }
            return "http:" + (URLComponents(string: url)?.host?.lowercased() ?? url)
        }
    }
}
