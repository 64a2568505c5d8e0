import Foundation
public import Logging
public import RelayModel
import Synchronization

/// The silences in force, as one worker knows them: read again when older than `refresh` (one
/// statement every few seconds per worker, never one per delivery), by the first delivery that
/// finds the copy stale while the others use it as it is. A read that fails keeps the last copy.
public final class SilenceCache: Sendable {
    let reader: any SilenceReading
    let refresh: Duration
    let logger: Logger
    private let state = Mutex<(silences: [Silence], fetchedAt: ContinuousClock.Instant?, refreshing: Bool)>(([], nil, false))

    public init(reader: any SilenceReading, refresh: Duration = .seconds(2), logger: Logger) {
        self.reader = reader
        self.refresh = refresh
        self.logger = logger
    }

    /// The silences in force or starting soon (each is checked against the clock when used).
    func current() async -> [Silence] {
        let now = ContinuousClock.now
        let (cached, stale) = state.withLock { state -> ([Silence], Bool) in
            let stale = state.fetchedAt.map { now - $0 >= refresh } ?? true
            guard stale, !state.refreshing || state.fetchedAt == nil else { return (state.silences, false) }
            state.refreshing = true
            return (state.silences, true)
        }
        guard stale else { return cached }
        do {
            let (silences, _) = try await reader.inForce(ahead: refresh * 2)
            state.withLock { $0 = (silences, ContinuousClock.now, false) }
            return silences
        } catch {
            logger.warning("silences not read; the last ones read stay in force", metadata: ["error": "\(String(reflecting: error))"])
            state.withLock { $0.refreshing = false; $0.fetchedAt = ContinuousClock.now }
            return cached
        }
    }

    /// Reads now at the next use (tests, after making a silence).
    public func invalidate() {
        state.withLock { $0.fetchedAt = nil }
    }
}
