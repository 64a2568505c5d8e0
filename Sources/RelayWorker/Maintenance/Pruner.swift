public import Foundation
public import Logging
import Metrics
public import RelayModel
import RelayDatabase
import RelayRuntime
import ServiceLifecycle

/// One pruning pass: for each kind the policy limits, batches of rows older than the kind's
/// cutoff until a batch comes back short, sized and spaced by `PrunePacing` (at most
/// `batchSize` rows, at least `pause` apart, within a budget of write-ahead log a second).
/// Only one replica prunes at a time (an advisory lock); the others skip the pass. Stops
/// between batches on graceful shutdown. Exports rows pruned and each kind's oldest row.
public struct Pruner: Sendable {
    let store: any RetentionStoring
    let policy: RetentionPolicy
    let pacing: PrunePacing
    let logger: Logger

    public init(store: any RetentionStoring, policy: RetentionPolicy, pacing: PrunePacing, logger: Logger) {
        self.store = store
        self.policy = policy
        self.pacing = pacing
        self.logger = logger
    }

    /// A pass in which some kinds failed (each was tried; the others were pruned).
    public struct Failed: Error, CustomStringConvertible {
        public let kinds: [RetentionKind]
        public let first: String
        public var description: String { "pruning \(kinds.map(\.rawValue).joined(separator: ", ")) failed: \(first)" }
    }

    /// Rows pruned per kind; nil when another replica holds the pruning lock. A kind that fails
    /// does not stop the others: the pass throws `Failed` after trying them all.
    public func pass() async throws -> [RetentionKind: Int]? {
        try await store.whileHoldingLock {
            var pruned: [RetentionKind: Int] = [:]
            var failed: [RetentionKind] = []
            var firstError: String?
            let now = try await store.now()
            for kind in RetentionKind.pruneOrder {
                if Task.isShuttingDownGracefully || Task.isCancelled { break }
                guard let cutoff = policy.cutoff(kind, now: now) else { continue }
                do {
                    pruned[kind] = try await prune(kind, before: cutoff)
                } catch {
                    if Task.isCancelled { throw error }
                    let text = PostgresErrorText.describe(error)
                    MetricHandles.counter(.retentionFailures, [("kind", kind.rawValue)]).increment()
                    logger.warning("pruning failed", metadata: ["kind": "\(kind.rawValue)", "error": "\(text)"])
                    failed.append(kind)
                    firstError = firstError ?? text
                }
            }
            if !Task.isShuttingDownGracefully, !Task.isCancelled { try await exportOldest(now: now) }
            if let firstError { throw Failed(kinds: failed, first: firstError) }
            return pruned
        }
    }

    /// What a pass would remove now, kind by kind (`prune --dry-run`): bodies of webhook rows
    /// that the rows' own setting removes first are not counted twice.
    public func estimates() async throws -> (now: Date, estimates: [RetentionKind: RetentionEstimate]) {
        let now = try await store.now()
        var estimates: [RetentionKind: RetentionEstimate] = [:]
        for kind in RetentionKind.pruneOrder {
            guard let cutoff = policy.cutoff(kind, now: now) else { continue }
            let notBefore = kind == .webhookBodies ? policy.cutoff(.webhookEvents, now: now) : nil
            estimates[kind] = try await store.estimate(kind, before: cutoff, notBefore: notBefore)
        }
        return (now, estimates)
    }

    private func prune(_ kind: RetentionKind, before cutoff: Date) async throws -> Int {
        var total = 0
        let counter = MetricHandles.counter(.retentionPrunedRows, [("kind", kind.rawValue)])
        let wal = MetricHandles.counter(.retentionWALBytes, [("kind", kind.rawValue)])
        var pacing = self.pacing
        var warnedWAL = false
        while true {
            let started = ContinuousClock.now
            let limit = pacing.batch
            let measuring = pacing.walBytesPerSecond > 0
            let (count, walBytes) = try await store.pruneBatch(kind, before: cutoff, limit: limit, measuringWAL: measuring)
            let took = ContinuousClock.now - started
            MetricHandles.timer(.retentionBatchDuration, [("kind", kind.rawValue)]).record(duration: took)
            counter.increment(by: count)
            if let walBytes { wal.increment(by: Int(clamping: walBytes)) }
            if measuring, walBytes == nil, !warnedWAL {
                warnedWAL = true
                logger.warning("this PostgreSQL will not tell its WAL position: the pruner paces itself by batch size and pause only",
                               metadata: ["kind": "\(kind.rawValue)"])
            }
            total += count
            if count < limit || Task.isShuttingDownGracefully || Task.isCancelled { break }
            // A shutdown ends the wait at once (and the loop with it).
            let wait = pacing.after(rows: count, walBytes: walBytes, took: took)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
        }
        if total > 0 { logger.info("pruned", metadata: ["kind": "\(kind.rawValue)", "rows": "\(total)"]) }
        return total
    }

    /// The age of the oldest row still holding each kind's data (0 when there is none).
    private func exportOldest(now: Date) async throws {
        for kind in RetentionKind.allCases {
            let oldest = try await store.oldest(kind)
            MetricHandles.gauge(.retentionOldest, [("kind", kind.rawValue)])
                .record(oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
        }
    }
}
