public import RelayModel
import RelayQueue

extension PostgresItemStore {
    /// Support's "refresh now": the item fetched from Entrupy at once, coalesced with any fetch
    /// already under way. A fetch holding the item's lease (a webhook's) is that fetch; else
    /// the item's re-fetch job is queued at the head of the queue, or the one waiting moved
    /// there, or the one running left to finish.
    public func refreshNow(entrupyID: String) async throws -> RefreshOutcome {
        let rows = try await client.query("""
            SELECT 1 FROM item_fetch_leases WHERE item_key = \("id:" + entrupyID) AND expires_at > now()
            """, logger: logger)
        for try await _ in rows { return .fetching }
        let job = try ReconcileItemJob(entrupyID: entrupyID, source: .manual).job()
        return switch try await PostgresJobQueue(client: client, logger: logger).expedite(job) {
        case .queued(let id): .queued(jobID: id)
        case .movedUp(let id): .movedUp(jobID: id)
        case .running(let id): .running(jobID: id)
        }
    }
}
