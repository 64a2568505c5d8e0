import RelayRuntime
import Synchronization

/// Places in the shared API budget this process took ahead, to spend in the next moments.
///
/// Every Entrupy request took its place with a statement of its own, under the budget row's
/// lock, rewriting the row's window (a second's send times: 240 of them at 200 a second). A
/// process that sends often now takes as many places as it asked for in the last `slot`, in one
/// statement, and hands them out here for up to `slot`; a place not used by then is dropped
/// (it stays counted in the window, so the limit only ever errs on the safe side). The window
/// is 1.2 s for a limit per second, a fifth for requests that leave late; a place leaves at
/// most `slot` (50 ms) after it was recorded.
///
/// A process that sends rarely asks for one place at a time, as before: the batch follows what
/// it asked for in the last slot, less what statements still in flight are taking, so an idle
/// replica never holds places another could use and a burst of callers does not each take a
/// batch.
public final class APIBudgetReservoir: Sendable {
    /// How long a place taken ahead may be handed out, and the span demand is counted over.
    public static let defaultSlot: Duration = .milliseconds(50)
    let slot: Duration

    private struct Batch {
        var places: Int
        let until: ContinuousClock.Instant
    }

    private struct State {
        var batches: [APIPriority: [Batch]] = [:]
        var slotStart = ContinuousClock.now
        /// Places asked for in the current slot and in the one before it.
        var askedNow = 0
        var askedBefore = 0
        /// Places asked for by statements not answered yet.
        var inFlight = 0
    }

    private let state = Mutex(State())
    /// The most places one statement takes ahead (a fiftieth of the limit, at most 16).
    let cap: Int

    init(limit: Int, slot: Duration = APIBudgetReservoir.defaultSlot) {
        cap = max(1, min(16, limit / 50))
        self.slot = max(.milliseconds(1), slot)
    }

    /// A place taken ahead for `priority` and still fresh, if there is one. Counts the demand either way.
    func draw(_ priority: APIPriority, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            if now - state.slotStart >= slot {
                let skipped = now - state.slotStart >= slot * 2
                state.askedBefore = skipped ? 0 : state.askedNow
                state.askedNow = 0
                state.slotStart = now
            }
            state.askedNow += 1
            var batches = state.batches[priority, default: []].filter { $0.until > now && $0.places > 0 }
            defer { state.batches[priority] = batches }
            guard !batches.isEmpty else { return false }
            batches[0].places -= 1
            return true
        }
    }

    /// How many places the next statement should take: what the last slot asked for, up to
    /// `cap`, less what statements in flight ask for; at least 1. Counted in flight until `settle`.
    func batchSize() -> Int {
        state.withLock { state in
            let places = max(1, min(cap, state.askedBefore) - state.inFlight)
            state.inFlight += places
            return places
        }
    }

    /// The statement that asked for `places` (`batchSize`) was answered, or failed.
    func settle(_ places: Int) {
        state.withLock { $0.inFlight = max(0, $0.inFlight - places) }
    }

    /// Keeps `places` taken ahead for `priority` (the caller already used one of those it took).
    func keep(_ places: Int, for priority: APIPriority, now: ContinuousClock.Instant = .now) {
        guard places > 0 else { return }
        state.withLock { $0.batches[priority, default: []].append(Batch(places: places, until: now + slot)) }
    }

    /// Drops every place taken ahead: a 429 paused the budget.
    func empty() {
        state.withLock { $0.batches = [:] }
    }
}
