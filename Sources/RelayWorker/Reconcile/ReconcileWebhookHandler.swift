import EntrupyAPI
import Foundation
import Metrics
public import RelayModel
public import RelayQueue
public import RelayRuntime

/// `reconcile_webhook`: runs the pipeline for a stored event. An item the API does not know
/// yet is asked for again, backing off, for `notFoundWindow` after the event arrived (items
/// can become visible minutes after their webhook); then the event is `failed`, and a
/// redelivery of it by Entrupy queues it again.
///
/// Hints coalesce: a fetch's commit marks processed every queued event about the item that
/// arrived before the fetch was requested, and this worker runs the hints for one item one
/// after another (`KeyedLock`), each first checking whether an earlier fetch covered it. So
/// hints waiting together cost one fetch, and a hint that arrives during a fetch causes
/// exactly one more after it. Across replicas the fetch holds the item's lease
/// (`PostgresFetchLeases`): a hint whose item another replica is fetching waits for it
/// (snoozed, no attempt spent) and then usually finds its event covered.
public struct ReconcileWebhookHandler: JobHandler {
    let pipeline: ReconcilePipeline
    let events: any WebhookEventTracking
    let notFoundWindow: Duration
    let itemLock: KeyedLock
    let leases: (any FetchLeasing)?
    /// Why the API version's routes are not there, when the health check says so (then a 404 is
    /// the route's, not the item's).
    let routeGone: @Sendable () -> String?
    private let latency = MetricHandles.timer(.reconcileLatency)

    /// How long a hint waits before looking again when another replica is fetching its item.
    static let leaseWait = Duration.milliseconds(300)
    /// How long a hint waits while the API version's routes are not there: no attempt is spent
    /// and the not-found window does not run, so nothing is lost while the setting is wrong.
    static let routeGoneWait = Duration.seconds(30)

    public init(pipeline: ReconcilePipeline, events: any WebhookEventTracking, notFoundWindow: Duration,
                itemLock: KeyedLock = KeyedLock(), leases: (any FetchLeasing)? = nil, routeGone: @escaping @Sendable () -> String? = { nil }) {
        self.routeGone = routeGone
        self.pipeline = pipeline
        self.events = events
        self.notFoundWindow = notFoundWindow
        self.itemLock = itemLock
        self.leases = leases
    }

    public func run(_ args: ReconcileWebhookJob, context: JobContext) async throws -> JobResult {
        guard let (event, taken) = try await read(args.webhookEventID) else {
            return .discard(error: "webhook event \(args.webhookEventID) no longer exists")
        }
        guard event.state != .processed else { return .completed }
        let target: ReconcilePipeline.Target
        if let id = event.entrupyID {
            target = .entrupyID(id)
        } else if let id = event.customerItemID {
            target = .customerItemID(id)
        } else {
            return .discard(error: "webhook event \(event.id) names no item")
        }
        // The lease the read took goes to the run that fetches; any path that does not reach it
        // (covered while waiting, a failure, a cancellation) ends it here.
        let claim = taken.map(LeaseClaim.init)
        do {
            let result = try await itemLock.withLock(target.lockKey, reportingWait: { waited in
                guard waited else { return try await leased(event, target: target, context: context, held: claim?.handOn()) }
                // A fetch that finished while this one waited may have covered the event (and what
                // was read with it is out of date).
                guard let current = try await events.pending(id: event.id), current.state != .processed else {
                    MetricHandles.counter(.reconcileCoalesced).increment()
                    return .completed
                }
                return try await leased(current, target: target, context: context, held: claim?.handOn())
            })
            await end(claim)
            return result
        } catch {
            await end(claim)
            throw error
        }
    }

    /// The event, and the item's fetch lease when the same round trip took it.
    private func read(_ id: Int64) async throws -> (PendingWebhook, FetchLease?)? {
        guard let leases else { return try await events.pending(id: id).map { ($0, nil) } }
        let holder = UUID()
        guard let (event, key) = try await events.pending(id: id, leasingFor: holder, duration: leases.duration) else { return nil }
        return (event, key.map { FetchLease(key: $0, holder: holder) })
    }

    /// Ends a lease the read took that no run took over.
    private func end(_ claim: LeaseClaim?) async {
        guard let leases, let lease = claim?.unclaimed else { return }
        await Task { try? await leases.release(lease.key, holder: lease.holder) }.value
    }

    /// Reconciles while holding the item's lease across replicas (`held`, when the event's read
    /// took it); waits (snoozes) while another replica holds it.
    private func leased(_ event: PendingWebhook, target: ReconcilePipeline.Target, context: JobContext,
                        held: FetchLease?) async throws -> JobResult {
        guard let leases else { return try await reconcile(event, target: target, context: context) }
        let lease: FetchLease
        if let held {
            // Taken by the event's read, under the key it built as `target.lockKey` is built.
            lease = held
        } else {
            guard let holder = try await leases.take(target.lockKey) else {
                MetricHandles.counter(.reconcileLeaseWaits).increment()
                return .snooze(Self.leaseWait)
            }
            lease = FetchLease(key: target.lockKey, holder: holder)
        }
        // A reconcile that commits ends the lease with its commit (`releasing`); any other
        // outcome releases it here, even when the job was cancelled (a timeout, shutdown): an
        // unstructured task is not cancelled with this one, so others need not wait for the
        // lease to expire. A second release of an ended lease deletes nothing.
        let release: @Sendable () async -> Void = { await Task { try? await leases.release(lease.key, holder: lease.holder) }.value }
        do {
            let (result, leaseEnded) = try await reconcile(event, target: target, context: context, releasing: lease)
            if !leaseEnded { await release() }
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func reconcile(_ event: PendingWebhook, target: ReconcilePipeline.Target, context: JobContext) async throws -> JobResult {
        try await reconcile(event, target: target, context: context, releasing: nil).result
    }

    /// The job's result, and whether its commit ended `lease` (else the caller releases it).
    private func reconcile(_ event: PendingWebhook, target: ReconcilePipeline.Target, context: JobContext,
                           releasing lease: FetchLease?) async throws -> (result: JobResult, leaseEnded: Bool) {
        do {
            // The deliveries it plans go in claimed by this worker (the run's follow-up lease),
            // which sends them when this handler returns; the commit ends the fetch lease.
            let result = try await pipeline.reconcile(target, source: .webhook(eventID: event.id), basis: event.basis,
                                                      followUps: context.followUps, releasing: lease)
            latency.record(duration: event.age)
            return (.completed, result.leaseEnded)
        } catch let error as EntrupyAPIError {
            return (try await failed(event, error, context: context), false)
        }
    }

    /// What Entrupy's refusal makes of the job, noted on the event.
    private func failed(_ event: PendingWebhook, _ error: EntrupyAPIError, context: JobContext) async throws -> JobResult {
        switch error {
        case .routeGone:
            try await events.noteError(id: event.id, error: error.description, final: false)
            return .snooze(Self.routeGoneWait)
        case .notFound:
            if let gone = routeGone() {
                try await events.noteError(id: event.id, error: "404, and \(gone)", final: false)
                return .snooze(Self.routeGoneWait)
            }
            let waited = event.age
            guard waited < notFoundWindow else {
                let message = "\(EntrupyAPIError.notFound.description) for \(waited.components.seconds) s after the webhook; giving up"
                try await events.noteError(id: event.id, error: message, final: true)
                return .discard(error: message)
            }
            try await events.noteError(id: event.id, error: EntrupyAPIError.notFound.description, final: false)
            return .snooze(Self.notFoundDelay(waited: waited))
        default:
            try await events.noteError(id: event.id, error: error.description, final: context.isLastAttempt)
            return error.jobResult
        }
    }

    /// The wait before asking again for an item not visible yet: half the time waited so far,
    /// between 2 seconds and 5 minutes.
    static func notFoundDelay(waited: Duration) -> Duration {
        min(max(waited / 2, .seconds(2)), .seconds(300))
    }
}
