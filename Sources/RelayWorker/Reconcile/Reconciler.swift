import EntrupyAPI
import Foundation
import Logging
import Metrics
import RelayCore
import RelayStore

/// Turns a hint into the truth: fetch the item from the Entrupy API, then store it and its
/// transitions. Errors are mapped to job outcomes: a 429 snoozes (no attempt spent), a 404
/// right after a webhook retries a bounded number of times, 5xx and timeouts back off.
public struct Reconciler: Sendable {
    public struct Configuration: Sendable {
        /// Attempts a 404 is retried (the item may not be visible yet) before giving up.
        public var notFoundAttempts: Int
        public var notFoundDelay: Duration

        public init(notFoundAttempts: Int = 6, notFoundDelay: Duration = .seconds(2)) {
            self.notFoundAttempts = notFoundAttempts
            self.notFoundDelay = notFoundDelay
        }
    }

    public enum Target: Sendable, Equatable {
        case entrupyID(String)
        case customerItemID(String)
    }

    let api: EntrupyAPIClient
    let items: PostgresItemRepository
    let configuration: Configuration
    /// Turns the transitions into deliveries in the same transaction; nil sends nothing.
    let planning: DeliveryPlanning?
    let logger: Logger

    public init(api: EntrupyAPIClient, items: PostgresItemRepository, configuration: Configuration,
                planning: DeliveryPlanning? = nil, logger: Logger) {
        self.api = api
        self.items = items
        self.configuration = configuration
        self.planning = planning
        self.logger = logger
    }

    public func fetch(_ target: Target) async throws -> EntrupyItem {
        switch target {
        case .entrupyID(let id): try await api.item(entrupyID: id)
        case .customerItemID(let id): try await api.lookup(customerItemID: id)
        }
    }

    /// Fetches and stores; `onGiveUp` runs when the job will not be retried.
    public func reconcile(_ target: Target, source: ReconcileSource, attempt: Int,
                          onError: @Sendable (String, _ final: Bool) async throws -> Void = { _, _ in }) async throws -> JobOutcome {
        let observedAt = Date()
        do {
            let item = try await fetch(target)
            let result = try await items.apply(item, observedAt: observedAt, source: source, planning: planning)
            Counter(label: "relay_reconcile_total", dimensions: [("source", source.label), ("changed", result.transitions.isEmpty ? "no" : "yes")]).increment()
            for transition in result.transitions {
                Counter(label: "relay_transitions_total", dimensions: [("kind", transition.kind.rawValue)]).increment()
            }
            if !result.transitions.isEmpty {
                logger.info("item reconciled", metadata: [
                    "entrupy_id": "\(item.entrupyID)", "transitions": "\(result.transitions.map(\.kind.rawValue).joined(separator: ","))",
                    "deliveries": "\(result.deliveries)",
                ])
            }
            return .completed
        } catch let error as EntrupyAPIError {
            switch error {
            case .rateLimited(let after):
                return .snooze(after ?? .seconds(1))
            case .notFound:
                let final = attempt >= configuration.notFoundAttempts
                try await onError(error.description, final)
                if final { return .discard(error: "\(error.description) after \(attempt) attempts") }
                return .retry(error: error.description, delay: configuration.notFoundDelay * attempt)
            case .unauthorized, .rejected, .invalidResponse, .server, .transport:
                try await onError(error.description, false)
                return .retry(error: error.description, delay: nil)
            }
        }
    }
}
