public import RelayModel
import ServiceLifecycle

/// The change feed, as the API reads it (`PostgresChangeFeed`).
public protocol ChangeFeedQueries: Sendable {
    /// Transitions after `cursor`, in the feed's order, at most `limit`.
    func changes(after cursor: ChangeCursor, limit: Int) async throws -> [ChangeEntry]
}

extension ChangeFeedQueries {
    /// As `changes(after:limit:)`, but when there is none yet, asks again every `poll` until
    /// one comes or `wait` has passed (a long poll: the reader is answered as soon as there is
    /// something to read). A graceful shutdown ends the wait at once, with what there is (the
    /// reader asks again, of another replica or after the restart), so that a waiting reader
    /// never holds a shutdown for up to `wait`.
    public func changes(after cursor: ChangeCursor, limit: Int, wait: Duration, poll: Duration = .milliseconds(250)) async throws -> [ChangeEntry] {
        let deadline = ContinuousClock.now + wait
        while true {
            let found = try await changes(after: cursor, limit: limit)
            let left = deadline - ContinuousClock.now
            if !found.isEmpty || left <= .zero || Task.isCancelled || Task.isShuttingDownGracefully { return found }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: min(poll, left)) }
        }
    }
}
