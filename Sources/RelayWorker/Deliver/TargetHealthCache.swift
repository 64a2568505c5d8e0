import Foundation
public import RelayModel
import Synchronization

/// The targets' health as this process last read it, for up to `ttl`: a delivery to a target
/// read healthy within the last second is attempted without asking the database again (one
/// round trip per delivery was a fifth of the outbox's cost). Anything but healthy is read
/// again before a delivery is held, so a hold or a probe is always decided on the row as it is;
/// a target another replica opened may see attempts for up to `ttl` more, counted as failures.
public final class TargetHealthCache: Sendable {
    let ttl: Duration
    private let entries = Mutex<[String: Entry]>([:])

    struct Entry {
        var health: TargetHealth?
        /// The database's time when read, and this process's clock then.
        var databaseNow: Date
        var readAt: ContinuousClock.Instant
    }

    public init(ttl: Duration = .seconds(1)) {
        self.ttl = ttl
    }

    /// The cached health and the database's time now (its time when read, plus what has passed
    /// since), when read within `ttl`.
    func cached(_ key: String) -> (TargetHealth?, Date)? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[key], now - entry.readAt < ttl else { return nil }
            return (entry.health, entry.databaseNow.addingTimeInterval((now - entry.readAt).timeInterval))
        }
    }

    func store(_ key: String, health: TargetHealth?, databaseNow: Date) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            // Bounded: targets are few, but a key is taken from a URL.
            if entries.count >= 10_000 { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(health: health, databaseNow: databaseNow, readAt: now)
        }
    }
}
