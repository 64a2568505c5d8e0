import Foundation
import Logging
import Metrics
public import RelayModel
public import RelayQueue
import RelayRules
import RelayRuntime

/// Email groups and digests (`EmailGroup`): a grouped delivery's job waits until its group is
/// due, then locks every delivery of the group that may be attempted, sends them as one email
/// (`DigestComposer`) and settles them all with it, each with an attempt naming the email; a
/// member a silence matches is recorded silenced instead, as its own job would have. The
/// other members' jobs then find their delivery settled. A delivery without a group costs
/// nothing here: both steps read its payload, already loaded.
extension DeliveryHandler {
    /// How long a grouped delivery's job waits before its group is due (or, failed, before
    /// the group's next attempt); nil when it may go now or has no group.
    static func groupWait(of delivery: DeliveryRecord, now: Date = Date()) -> Duration? {
        guard case .email(let email)? = delivery.payload, let group = email.group else { return nil }
        var until = group.timing.due(createdAt: delivery.createdAt)
        if delivery.state == .failed, let next = delivery.nextAttemptAt { until = max(until, next) }
        let wait = until.timeIntervalSince(now)
        return wait > 0 ? .milliseconds(Int64((wait * 1000).rounded(.up)) + 20) : nil
    }

    /// The group's one email, when `delivery` has a group, SMTP is set and a store can lock
    /// groups; nil otherwise (it is then sent alone). While another replica is sending its
    /// group the job looks again shortly, and finds it settled.
    func attemptGroup(_ delivery: DeliveryRecord, key: String, health: TargetHealth?, probe: Bool) async throws -> JobResult? {
        guard case .email(let email)? = delivery.payload, let group = email.group, let groups,
              let sender = self.email as? any DigestSending else { return nil }
        let createdBy: Date = switch group.timing {
        case .wait: .distantFuture
        case .digest(let schedule): schedule.next(after: delivery.createdAt)
        }
        let reports = GroupReportBox()
        let sent = try await groups.sendGroup(of: delivery.id, rule: delivery.rule, actionIndex: delivery.actionIndex, key: group.key,
                                              createdBy: createdBy, limit: DigestComposer.maxEntries) { [self] members in
            let silenced = try await silencedMembers(members)
            let emailed = members.filter { silenced[$0.id] == nil }
            guard !emailed.isEmpty else { return GroupSend(settlements: [], silenced: silenced) }
            let (report, settlements) = await Self.sendDigest(emailed, rule: delivery.rule, sender: sender, schedule: schedule,
                                                              workerID: workerID)
            reports.report = report
            return GroupSend(settlements: settlements, silenced: silenced)
        }
        guard let sent else { return .snooze(.milliseconds(Int64.random(in: 2_000...5_000))) }
        // Every member a silence matched, this one among them: nothing was sent.
        guard let report = reports.report else { return .completed }
        await recordHealth(report, key: key, before: health, probe: probe, delivery: delivery)
        return try await finishGroup(delivery, settled: sent.settlements, report: report, key: key)
    }

    /// The members a silence in force matches, each with the silence's ID: recorded silenced
    /// with the group's settlement, never emailed, as the job of each alone would have done
    /// (`silence(_:)`). Those an operator redrove after a silence are sent. Without silences
    /// in force this reads nothing: the silences are the worker's copy (`SilenceCache`).
    func silencedMembers(_ members: [DeliveryRecord]) async throws -> [Int64: Int64] {
        guard let pauses else { return [:] }
        let silences = await pauses.silences.current(), now = Date()
        guard silences.contains(where: { $0.isActive(at: now) }) else { return [:] }
        var items: [String: EntrupyItem?] = [:], silenced: [Int64: Int64] = [:]
        for member in members {
            guard let silence = try await matchingSilence(member, among: silences, now: now, items: &items) else { continue }
            silenced[member.id] = silence.id
            countSilenced(member, by: silence.id)
        }
        return silenced
    }

    /// The digest of `members`, sent once, and what it means for each: its own attempt (its
    /// number, its retry schedule), naming the email it went in.
    static func sendDigest(_ members: [DeliveryRecord], rule: String, sender: any DigestSending, schedule: RetrySchedule,
                           workerID: String) async -> (AttemptReport, [GroupSettlement]) {
        let entries = members.compactMap { member -> DeliveryPayload.Email? in
            if case .email(let email)? = member.payload { return email } else { return nil }
        }
        let messageKey = DigestMessageKey.make(members: members.map { (id: $0.id, attempt: $0.attempts + 1) })
        let startedAt = Date(), clock = ContinuousClock.now
        let report: AttemptReport
        if let digest = DigestComposer.compose(rule: rule, entries: entries) {
            report = await sender.deliver(digest: digest, messageKey: messageKey, date: startedAt)
        } else {
            report = AttemptReport(result: .permanent, error: "stored email payload is incomplete (\(DeliveryPayload.required(for: .email)))")
        }
        let elapsed = Int(clamping: (ContinuousClock.now - clock).milliseconds)
        let note = "sent in digest \(sender.messageID(for: messageKey)) with \(members.count) deliveries"
        let decisions = members.map { DeliveryDecision.after(report, attemptInRound: $0.attempts + 1 - $0.scheduleBase, schedule: schedule) }
        // Those that will retry wait alike (one draw of the schedule's jitter), so they are
        // due again together and go out as one email again.
        let retryIn = decisions.lazy.compactMap(\.retryIn).first
        let settlements = zip(members, decisions).map { member, decision in
            let attempt = DeliveryAttempt(attempt: member.attempts + 1, startedAt: startedAt, durationMilliseconds: elapsed,
                                          outcome: decision.state, smtpReply: report.smtpReply, error: report.error,
                                          responseExcerpt: note, worker: workerID)
            return GroupSettlement(deliveryID: member.id, attempt: attempt, retryIn: decision.state == .failed ? retryIn : nil,
                                   ownFailure: report.result != .delivered && report.cause == .delivery)
        }
        return (report, settlements)
    }

    /// The job's result once the group is settled (already written): completed, or due again
    /// with its group; `delivery.dead` for each member that died; the metrics and log line.
    func finishGroup(_ delivery: DeliveryRecord, settled: [GroupSettlement], report: AttemptReport, key: String) async throws -> JobResult {
        for settlement in settled {
            MetricHandles.counter(.deliveries, [("channel", delivery.channel.rawValue), ("outcome", settlement.attempt.outcome.rawValue)])
                .increment()
        }
        for dead in settled where dead.attempt.outcome == .dead {
            if let member = try await loader.load(dead.deliveryID) {
                try await recordDead(member, attempts: dead.attempt.attempt, error: report.error, key: key)
            }
        }
        let own = settled.first { $0.deliveryID == delivery.id }
        logger.info("group sent", metadata: [
            "delivery_id": "\(delivery.id)", "rule": "\(delivery.rule)", "deliveries": "\(settled.count)",
            "state": "\(own?.attempt.outcome.rawValue ?? "-")", "error": "\(report.error ?? "-")",
        ])
        if own?.attempt.outcome == .failed { return .snooze(own?.retryIn ?? .seconds(1)) }
        return .completed
    }
}
