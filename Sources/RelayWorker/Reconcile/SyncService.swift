import AsyncAlgorithms
public import EntrupyAPI
import Foundation
public import Logging
import Metrics
public import RelayModel
public import RelayRuntime
public import ServiceLifecycle

/// Re-verification by search: webhooks can be lost, so every `interval` one replica walks
/// Entrupy's search API over a window of recent submissions (the widest of `tiers` that is due:
/// the last day every pass, the week hourly, the whole `lookback` daily by default, so a pass
/// costs about what changed, not the whole history), 25 items a call, and applies
/// every item whose state differs from the stored one (source `sync`): items never seen are
/// created, and a flag raised on a final item is caught. The pass holds a lock in PostgreSQL
/// (one replica at a time), saves its cursor after each page (a restart resumes), and spends
/// at most its own share of the API budget.
public struct SyncService: Service {
    /// What one call of `syncOnce` did.
    public struct Outcome: Sendable, Equatable {
        public var pages = 0
        public var itemsChecked = 0
        public var changesFound = 0
        public var completed = false
    }

    let api: EntrupyAPIClient
    let pipeline: ReconcilePipeline
    let store: any SyncStoring
    let interval: Duration
    let lookback: Duration
    let tiers: SyncTiers
    /// The sync's share of the API budget (`ENTRUPY_RELAY_ENTRUPY_API_RATE` × `ENTRUPY_RELAY_SYNC_BUDGET_SHARE`), taken on top of the client's own.
    let budget: RateBudget
    /// Every search carries it: Entrupy's answers nothing without one.
    let categoryFilter: SearchQuery.Filter
    let logger: Logger

    /// - Parameter categories: searched besides the known ones (`ENTRUPY_RELAY_SYNC_CATEGORIES`).
    public init(api: EntrupyAPIClient, pipeline: ReconcilePipeline, store: any SyncStoring, interval: Duration, lookback: Duration,
                tiers: SyncTiers = .standard, budget: RateBudget, categories: [String] = [], logger: Logger) {
        self.tiers = tiers
        categoryFilter = SearchQuery.categoryFilter(extra: categories)
        self.api = api
        self.pipeline = pipeline
        self.store = store
        self.interval = interval
        self.lookback = lookback
        self.budget = budget
        self.logger = logger
    }

    /// Runs a pass when one is due (an interrupted pass at once, otherwise `interval` after the
    /// last complete one started, by the shared state, so a change is seen within about one
    /// interval however long a pass takes), checking every tenth of the interval (at most 30 s) until graceful shutdown;
    /// in between it refreshes the gauges from the shared state, so every replica reports the same.
    ///
    /// Graceful shutdown cuts a pass short: what it applied is committed item by item, and the
    /// page under way is walked again by the next pass, from the last checkpoint.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            // Checked often enough that a pass starts within a tenth of the interval of being due.
            let tick = max(.seconds(1), min(self.interval / 10, .seconds(30)))
            var due = ContinuousClock.now + ((try? await self.firstWait()) ?? .zero)
            await self.step(due: &due)
            for await _ in AsyncTimerSequence(interval: tick, clock: .continuous) {
                await self.step(due: &due)
            }
        }
    }

    private func firstWait() async throws -> Duration {
        let status = try await store.status()
        guard status.current == nil, let age = status.lastStartAgeSeconds, age.isFinite, age >= 0 else { return .zero }
        return max(.zero, interval - .milliseconds(Int64(min(age, 1e9) * 1000)))
    }

    private func step(due: inout ContinuousClock.Instant) async {
        guard ContinuousClock.now >= due else {
            try? await publish(store.status())
            return
        }
        let started = ContinuousClock.now
        await passLoggingFailure()
        // Due an interval after this start; a pass longer than the interval is followed at the next tick.
        due = started + interval
    }

    private func passLoggingFailure() async {
        do {
            _ = try await syncOnce()
        } catch {
            if Task.isCancelled { return }
            logger.warning("sync pass stopped; the next one resumes from its last page", metadata: ["error": "\(StoreFailure.describe(error))"])
            try? await store.noteError(String(describing: error))
        }
        try? await publish(store.status())
    }

    /// Runs the pass under way (or a new one) to its end; nil when another replica holds it.
    public func syncOnce() async throws -> Outcome? {
        try await store.whileHoldingLock { try await self.walk() }
    }

    /// Most pages one pass walks: a search that hands out fresh cursors for ever must not hold
    /// the lock for ever (25 items a page: 2.5 million items).
    static let maxPages = 100_000

    private func walk() async throws -> Outcome {
        let started = ContinuousClock.now
        guard var pass = try await store.resumeOrStart(tiers: tiers, lookback: lookback) else {
            logger.debug("sync: every tier's window was walked within its interval; no pass due")
            return Outcome()
        }
        let notifySince = try await store.notifySince()
        var outcome = Outcome()
        logger.info("sync pass", metadata: [
            "tier": "\(pass.tier ?? "all")", "window_start": "\(pass.windowStart)", "window_end": "\(pass.windowEnd)",
            "resumed_at_page": "\(pass.pages)",
        ])
        guard try await walkPages(of: &pass, into: &outcome, notifySince: notifySince) else { return outcome }
        try await complete(pass, outcome: &outcome, started: started)
        return outcome
    }

    /// Walks the pass's pages to the end of its window, checkpointing each. False when the
    /// saved cursor was refused and, the pass started again, no pass was due.
    private func walkPages(of pass: inout SyncPass, into outcome: inout Outcome, notifySince: Date) async throws -> Bool {
        var seenCursors = Set<String>()
        var resumedCursor = pass.cursor
        var recentWalked = ContinuousClock.now
        while true {
            try Task.checkCancellation()
            let observedAt = try await pipeline.clock()
            let page: SearchPage
            do {
                page = try await search(from: pass.windowStart, to: pass.windowEnd, cursor: pass.cursor)
            } catch EntrupyAPIError.rejected(let status, _) where pass.cursor != nil && pass.cursor == resumedCursor && (400..<500).contains(status) {
                // The cursor saved by an interrupted pass is no longer valid: start the window again
                // (once: a cursor refused in the middle of a walk ends the pass as failed below).
                logger.notice("sync: the search refused the saved cursor; starting the pass again")
                try await store.abandon()
                guard let fresh = try await store.resumeOrStart(tiers: tiers, lookback: lookback) else { return false }
                pass = fresh
                resumedCursor = nil
                seenCursors.removeAll()
                continue
            }
            let changes = try await applyDiffering(page.items, observedAt: observedAt, notifySince: notifySince)
            // An empty page ends the walk; a page of only unreadable entries does not.
            let next = page.items.isEmpty && page.skipped == 0 ? nil : page.nextCursor
            let looped = next.map { !seenCursors.insert($0.jsonText).inserted } ?? false
            outcome.pages += 1
            outcome.itemsChecked += page.items.count
            outcome.changesFound += changes
            record(page, changes: changes)
            try await checkpoint(page, next: next, changes: changes, looped: looped, pages: outcome.pages)
            guard let next else { return true }
            pass.cursor = next
            // A wide pass takes long; the last day is walked again each interval meanwhile.
            if ContinuousClock.now - recentWalked >= interval, let recent = tiers.everyPass, recent.name != pass.tier {
                try await walkRecent(recent, notifySince: notifySince)
                recentWalked = ContinuousClock.now
            }
        }
    }

    /// Saves where the pass is. A search that loops or a pass at the page cap is not a complete
    /// pass: it says so, and the window is started afresh next time.
    private func checkpoint(_ page: SearchPage, next: JSONValue?, changes: Int, looped: Bool, pages: Int) async throws {
        if looped || pages >= Self.maxPages {
            let reason = looped ? "the search returned a cursor it had already returned" : "the pass reached \(Self.maxPages) pages"
            try await store.checkpoint(cursor: nil, items: page.items.count, changes: changes)
            try await store.abandon()
            throw SyncWalkEnded(reason: reason)
        }
        try await store.checkpoint(cursor: next, items: page.items.count, changes: changes)
    }

    /// Records the walked window as covered, then warns if the pass was blind, and counts and logs it.
    private func complete(_ pass: SyncPass, outcome: inout Outcome, started: ContinuousClock.Instant) async throws {
        let walked = Duration.milliseconds(Int64(pass.windowEnd.timeIntervalSince(pass.windowStart) * 1000))
        try await store.finish(covering: tiers.covered(byTierNamed: pass.tier, walked: walked, lookback: lookback))
        let tierName = pass.tier ?? "all"
        outcome.completed = true
        // A resumed pass counts the pages its earlier runs walked too.
        await warnIfBlind(itemsChecked: pass.itemsChecked + outcome.itemsChecked, pass: pass)
        let took = ContinuousClock.now - started
        MetricHandles.timer(.syncPassDuration).record(duration: took)
        MetricHandles.counter(.syncPasses, [("tier", tierName)]).increment()
        logger.notice("sync pass complete", metadata: [
            "tier": "\(tierName)", "seconds": "\(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)",
            "pages": "\(outcome.pages)", "items_checked": "\(outcome.itemsChecked)", "changes_found": "\(outcome.changesFound)",
        ])
    }

    /// A complete pass that saw no items while the relay holds items submitted in its window
    /// means the search answers nothing (a filter Entrupy wants, another organisation's token),
    /// not that nothing changed: the safety net is gone, so say so in the log, a metric and
    /// `sync status`.
    /// The pass is complete by then: a failure here is logged as what it is, never as a stopped pass.
    private func warnIfBlind(itemsChecked: Int, pass: SyncPass) async {
        guard itemsChecked == 0 else { return }
        do {
            try await warnIfHeld(from: pass.windowStart, to: pass.windowEnd)
        } catch {
            logger.notice("sync: could not check whether the complete pass was blind", metadata: ["error": "\(StoreFailure.describe(error))"])
        }
    }

    private func warnIfHeld(from windowStart: Date, to windowEnd: Date) async throws {
        let held = try await store.itemsSubmitted(since: windowStart, until: windowEnd, atMost: 1_000)
        guard held > 0 else { return }
        let count = held >= 1_000 ? "at least 1,000" : "\(held)"
        let message = "the pass saw no items while the relay holds \(count) submitted in its window: Entrupy's search answered nothing; "
            + "check the categories searched (\(categoryFilter.values.joined(separator: ", ")); ENTRUPY_RELAY_SYNC_CATEGORIES adds more) "
            + "and that the API token is the organisation's that sends the webhooks"
        MetricHandles.counter(.syncBlindPasses).increment()
        logger.warning("sync: \(message)")
        try await store.noteError(message)
    }

    /// Counts a walked page, and says when entries of it could not be read.
    func record(_ page: SearchPage, changes: Int) {
        MetricHandles.counter(.syncPages).increment()
        MetricHandles.counter(.syncItemsChecked).increment(by: page.items.count)
        MetricHandles.counter(.syncChanges).increment(by: changes)
        if page.skipped > 0 {
            MetricHandles.counter(.syncItemsUnreadable).increment(by: page.skipped)
            logger.warning("sync: items in a search page could not be read and were skipped", metadata: ["count": "\(page.skipped)"])
        }
    }

    /// One page, within the sync's share of the budget; Entrupy's passing trouble (429, 5xx, no
    /// answer) is waited out a few times, backing off, before the pass gives up until next time.
    func search(from windowStart: Date, to windowEnd: Date, cursor: JSONValue?) async throws -> SearchPage {
        let query = SearchQuery(filters: [categoryFilter], limit: 25, cursor: cursor, startEpoch: Int64(windowStart.timeIntervalSince1970.rounded(.down)),
                                endEpoch: Int64(windowEnd.timeIntervalSince1970.rounded(.up)))
        var delay = Duration.seconds(1)
        for attempt in 1...6 {
            try await budget.acquire()
            do {
                return try await api.search(query)
            } catch EntrupyAPIError.rateLimited(let after) {
                try await Task.sleep(for: after ?? delay)
            } catch let error as EntrupyAPIError where error.isPassing && attempt < 6 {
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            }
        }
        throw EntrupyAPIError.server(status: 503)
    }

    /// Applies the items whose compared state differs from the stored one (or that are not
    /// stored); returns how many changed anything. An item the relay never saw that was
    /// submitted before the first pass ever started is history, recorded without notifying (the
    /// first pass over 90 days must not mail every old item); one item that fails to apply is
    /// logged and skipped, so it cannot stop every pass at the same page.
    func applyDiffering(_ items: [EntrupyItem], observedAt: Date, notifySince: Date) async throws -> Int {
        let storable = items.map(\.storable)
        let stored = try await pipeline.storedStates(of: storable.map(\.entrupyID))
        var changes = 0
        for (item, clean) in zip(items, storable) where stored[clean.entrupyID]?.snapshot != clean.snapshot {
            let history = stored[clean.entrupyID] == nil && (item.submittedAt ?? .distantPast) < notifySince
            do {
                let result = try await pipeline.apply(item, observedAt: observedAt, source: .sync, notify: !history, followUps: nil)
                if !result.transitions.isEmpty { changes += 1 }
            } catch let error as CancellationError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                MetricHandles.counter(.syncApplyFailures).increment()
                logger.warning("sync: an item could not be stored; the next pass tries again", metadata: [
                    "entrupy_id": "\(clean.entrupyID)", "error": "\(StoreFailure.describe(error))",
                ])
            }
        }
        return changes
    }

    private func publish(_ status: SyncStatus) {
        if let finished = status.lastFinishedAt {
            MetricHandles.gauge(.syncLastCompleteTimestamp).record(finished.timeIntervalSince1970)
        }
        if let age = status.lastAgeSeconds { MetricHandles.gauge(.syncLastCompleteAge).record(age) }
        if let items = status.lastItemsChecked { MetricHandles.gauge(.syncLastItemsChecked).record(items) }
        if let changes = status.lastChangesFound { MetricHandles.gauge(.syncLastChangesFound).record(changes) }
    }
}

/// A walk that could not reach the end of the window (a cursor loop, or the page cap).
struct SyncWalkEnded: Error, CustomStringConvertible {
    var reason: String
    var description: String { "sync pass ended early: \(reason)" }
}

extension EntrupyAPIError {
    /// Trouble that passes: worth asking again after a wait.
    var isPassing: Bool {
        switch self {
        case .server, .transport, .rateLimited, .budgetUnavailable: true
        case .notFound, .unauthorized, .routeGone, .rejected, .invalidResponse: false
        }
    }
}
