import Synchronization

/// The SMTP connections kept open between messages: at most `capacity`, each given to one
/// sender at a time, the most recently used first (the others may time out on the server and
/// be closed). One idle longer than `idleLimit` is not handed out again: servers drop idle
/// connections, and a fresh one costs less than a failed first command.
final class SMTPConnectionPool: Sendable {
    let capacity: Int
    let idleLimit: Duration
    private let idle = Mutex<[SMTPSession]>([])

    init(capacity: Int, idleLimit: Duration = .seconds(30)) {
        self.capacity = max(0, capacity)
        self.idleLimit = idleLimit
    }

    /// A kept connection, or nil. Expired ones are dropped (their channels closed).
    func take() -> SMTPSession? {
        let now = ContinuousClock.now
        let (fresh, expired) = idle.withLock { sessions -> (SMTPSession?, [SMTPSession]) in
            var expired: [SMTPSession] = []
            while let session = sessions.popLast() {
                if now - session.idleSince < idleLimit && session.channel.isActive { return (session, expired) }
                expired.append(session)
            }
            return (nil, expired)
        }
        for session in expired { session.channel.close(promise: nil) }
        return fresh
    }

    /// Keeps `session` for the next message; returns it instead when the pool is full (the
    /// caller closes it).
    func giveBack(_ session: SMTPSession) -> SMTPSession? {
        session.idleSince = .now
        return idle.withLock { sessions -> SMTPSession? in
            guard sessions.count < capacity, session.channel.isActive else { return session }
            sessions.append(session)
            return nil
        }
    }

    /// Every kept connection, removed from the pool.
    func drain() -> [SMTPSession] {
        idle.withLock { sessions in
            defer { sessions.removeAll() }
            return sessions
        }
    }
}
