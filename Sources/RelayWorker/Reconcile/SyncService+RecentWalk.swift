import Foundation
import Metrics
import RelayModel
import RelayRuntime

extension SyncService {
    /// Walks the narrowest tier's window (the last day, walked every pass) from the top, in the
    /// middle of a wider pass: the week's or the whole window's pass takes many intervals, and
    /// without this a change of yesterday's item whose webhook was lost would wait for it to end.
    /// Search answers newest first, so this costs the day's pages only. Not saved: a restart
    /// resumes the wider pass, and the next pass walks the day anyway.
    func walkRecent(_ tier: SyncTiers.Tier, notifySince: Date) async throws {
        let started = ContinuousClock.now
        let end = try await pipeline.clock()
        let start = end.addingTimeInterval(-Double(tiers.span(of: tier, lookback: lookback).components.seconds))
        var cursor: JSONValue?
        var seen = Set<String>()
        var pages = 0, items = 0, changes = 0
        while pages < Self.maxPages {
            try Task.checkCancellation()
            let observedAt = try await pipeline.clock()
            let page = try await search(from: start, to: end, cursor: cursor)
            let changed = try await applyDiffering(page.items, observedAt: observedAt, notifySince: notifySince)
            pages += 1
            items += page.items.count
            changes += changed
            record(page, changes: changed)
            let next = page.items.isEmpty && page.skipped == 0 ? nil : page.nextCursor
            guard let next, seen.insert(next.jsonText).inserted else { break }
            cursor = next
        }
        MetricHandles.counter(.syncPasses, [("tier", tier.name)]).increment()
        logger.notice("sync: walked the recent window again during a wider pass", metadata: [
            "tier": "\(tier.name)", "pages": "\(pages)", "items_checked": "\(items)", "changes_found": "\(changes)",
            "seconds": "\(Double((ContinuousClock.now - started).components.seconds))",
        ])
    }
}
