import Foundation
import Metrics
import RelayCore
import RelayStore

/// `reconcile_webhook {webhook_event_id}`: the follow-up job the receiver enqueues.
public struct ReconcileWebhookHandler: JobHandler {
    public let kind = PostgresWebhookEventRepository.reconcileJobKind
    let reconciler: Reconciler
    let items: PostgresItemRepository
    private let latency = Metrics.Timer(label: "relay_reconcile_latency_seconds")

    public init(reconciler: Reconciler, items: PostgresItemRepository) {
        self.reconciler = reconciler
        self.items = items
    }

    public func run(_ job: ClaimedJob) async throws -> JobOutcome {
        guard let eventID = job.args["webhook_event_id"]?.int64Value else {
            return .discard(error: "job has no webhook_event_id")
        }
        guard let event = try await items.webhook(id: eventID) else {
            return .discard(error: "webhook event \(eventID) no longer exists")
        }
        guard event.state != "processed" else { return .completed }
        let target: Reconciler.Target
        if let id = event.entrupyID {
            target = .entrupyID(id)
        } else if let id = event.customerItemID {
            target = .customerItemID(id)
        } else {
            return .discard(error: "webhook event \(eventID) names no item")
        }
        let items = self.items
        let outcome = try await reconciler.reconcile(target, source: .webhook(eventID: eventID), attempt: job.attempt) { message, final in
            try await items.noteWebhookError(id: eventID, error: message, final: final)
        }
        if outcome == .completed {
            latency.recordNanoseconds(Int64(Date().timeIntervalSince(event.receivedAt) * 1e9))
        }
        return outcome
    }
}
