import Foundation
import Logging
import Metrics
import RelayCore
import RelayStore

/// Runs `deliver` jobs: one attempt at one delivery, recorded with its outcome. Retries follow
/// the delivery schedule (a target's Retry-After wins); when it is spent, or the refusal is
/// permanent, the delivery is dead until someone retries it.
public struct DeliveryHandler: JobHandler {
    public let kind = PostgresDeliveryRepository.jobKind

    let deliveries: PostgresDeliveryRepository
    let email: EmailDeliverer?
    let callbacks: CallbackDeliverer
    let schedule: RetrySchedule
    let limiter: TargetLimiter
    let workerID: String
    let logger: Logger

    public init(deliveries: PostgresDeliveryRepository, email: EmailDeliverer?, callbacks: CallbackDeliverer,
                schedule: RetrySchedule, limiter: TargetLimiter, workerID: String, logger: Logger) {
        self.deliveries = deliveries
        self.email = email
        self.callbacks = callbacks
        self.schedule = schedule
        self.limiter = limiter
        self.workerID = workerID
        self.logger = logger
    }

    public func run(_ job: ClaimedJob) async throws -> JobOutcome {
        guard let id = job.args["delivery_id"]?.int64Value else { return .discard(error: "job has no delivery_id") }
        guard let delivery = try await deliveries.delivery(id: id) else { return .completed }
        guard delivery.state == .pending || delivery.state == .failed else { return .completed }

        let target = Self.limitKey(for: delivery)
        guard limiter.acquire(target) else {
            return .snooze(.milliseconds(Int64.random(in: 300...700)))
        }
        defer { limiter.release(target) }

        let startedAt = Date()
        let clock = ContinuousClock.now
        let report: AttemptReport
        switch delivery.channel {
        case .email:
            report = await email?.deliver(delivery)
                ?? AttemptReport(result: .transient, error: "SMTP_URL and SMTP_FROM are not set: email cannot be sent")
        case .webhook:
            report = await callbacks.deliver(delivery)
        }
        let elapsed = ContinuousClock.now - clock

        let retryIn: Duration? = report.result == .transient
            ? (report.retryAfter.map { min($0, .seconds(86_400)) } ?? schedule.delay(afterAttempt: job.attempt))
            : nil
        let state: DeliveryState = switch report.result {
        case .delivered: .delivered
        case .permanent: .dead
        case .transient: retryIn == nil || job.attempt >= job.maxAttempts ? .dead : .failed
        }
        let attempt = DeliveryAttempt(
            attempt: delivery.attempts + 1, startedAt: startedAt, durationMilliseconds: Int(elapsed.milliseconds),
            outcome: state, statusCode: report.statusCode, smtpReply: report.smtpReply, error: report.error,
            responseExcerpt: report.excerpt, worker: workerID)
        try await deliveries.record(attempt, deliveryID: id, retryIn: retryIn)

        Counter(label: "relay_deliveries_total", dimensions: [("channel", delivery.channel.rawValue), ("outcome", state.rawValue)]).increment()
        Metrics.Timer(label: "relay_delivery_duration_seconds", dimensions: [("channel", delivery.channel.rawValue)])
            .recordNanoseconds(elapsed.nanoseconds)
        let metadata: Logger.Metadata = [
            "delivery_id": "\(id)", "entrupy_id": "\(delivery.entrupyID)", "rule": "\(delivery.rule)",
            "channel": "\(delivery.channel.rawValue)", "state": "\(state.rawValue)", "attempt": "\(attempt.attempt)",
        ]
        switch state {
        case .delivered:
            logger.info("delivered", metadata: metadata)
            return .completed
        case .failed:
            logger.warning("delivery attempt failed", metadata: metadata.merging(["error": "\(report.error ?? "-")"]) { $1 })
            return .retry(error: report.error ?? "failed", delay: retryIn)
        case .dead, .pending:
            logger.error("delivery is dead", metadata: metadata.merging(["error": "\(report.error ?? "-")"]) { $1 })
            return .discard(error: report.error ?? "dead")
        }
    }

    /// Callbacks are limited per host, email per SMTP server (there is one).
    static func limitKey(for delivery: DeliveryRecord) -> String {
        switch delivery.channel {
        case .email: return "smtp"
        case .webhook:
            let url = delivery.payload["url"]?.stringValue ?? delivery.target
            return "http:" + (URLComponents(string: url)?.host?.lowercased() ?? url)
        }
    }
}
