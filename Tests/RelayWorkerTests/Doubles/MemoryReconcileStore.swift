import Foundation
import RelayModel
import RelayQueue
import RelayWorker
import Synchronization

/// The store as the pipeline sees it, in memory: a commit is a compare-and-swap on the state
/// it was computed against, as the PostgreSQL statement's is. `interlopers` are writes another
/// worker makes just before the next commits, to make them lose the race.
final class MemoryReconcileStore: ReconcileStoring {
    struct State {
        var items: [String: StoredItemState] = [:]
        var accepted: [ReconcileChange] = []
        /// The follow-up lease each commit was given, in order (nil: none).
        var followUps: [FollowUpJobs?] = []
        var refused = 0
        var interlopers: [StoredItemState] = []
        var uniqueUserIDs: [String: String] = [:]
        var lookups = 0
    }

    let state = Mutex(State())
    let now: Date

    init(now: Date = Date(timeIntervalSince1970: 1_780_000_000)) {
        self.now = now
    }

    func clock() async throws -> Date { now }

    func state(of entrupyID: String) async throws -> StoredItemState? {
        state.withLock { $0.items[entrupyID] }
    }

    func states(of entrupyIDs: [String]) async throws -> [String: StoredItemState] {
        state.withLock { state in state.items.filter { entrupyIDs.contains($0.key) } }
    }

    func uniqueUserID(username: String) async throws -> String? {
        state.withLock { state in
            state.lookups += 1
            return state.uniqueUserIDs[username]
        }
    }

    func commit(_ change: ReconcileChange, followUps: FollowUpJobs?, releasing lease: FetchLease?) async throws -> ApplyResult? {
        let id = change.item.storable.entrupyID
        return state.withLock { state -> ApplyResult? in
            state.followUps.append(followUps)
            if !state.interlopers.isEmpty { state.items[id] = state.interlopers.removeFirst() }
            guard state.items[id] == change.basedOn else {
                state.refused += 1
                return nil
            }
            state.accepted.append(change)
            if change.stale {
                var result = ApplyResult(transitions: [], stale: true, entrupyID: id)
                result.leaseEnded = lease != nil
                return result
            }
            state.items[id] = StoredItemState(snapshot: change.item.storable.snapshot, fetchedAt: change.observedAt)
            var result = ApplyResult(transitions: change.transitions, stale: false, deliveries: change.deliveries.count, entrupyID: id)
            result.leaseEnded = lease != nil
            return result
        }
    }
}
