extension ChangeCursor {
    /// A cursor this database cannot follow: it was given out in another history of it
    /// (`ChangeFeedHistory`), so reading on from it could skip transitions. The API answers
    /// 409 with `description`, which says what to do.
    public struct Refused: Error, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            /// Another PostgreSQL cluster gave it out (a dump restored into a new one, a replacement).
            case otherCluster
            /// Another timeline of this cluster (a point-in-time recovery, a promoted standby).
            case otherTimeline
            /// Its transaction is one this database has not reached (restored from a backup since).
            case ahead
            /// The transition it points at is not in this database as it was then.
            case unknownTransition
        }

        public let reason: Reason

        public init(_ reason: Reason) {
            self.reason = reason
        }

        var why: String {
            switch reason {
            case .otherCluster: "it was given out by another PostgreSQL cluster (the database was restored from a dump into a new one, or replaced)"
            case .otherTimeline: "the database was recovered to a point in time, or a standby was promoted, since it was given out"
            case .ahead: "it is ahead of the database (the database was restored from a backup or replaced since it was given out)"
            case .unknownTransition: "the transition it points at is not in the database as it was (the database was restored from a backup since)"
            }
        }

        public var description: String {
            "this cursor belongs to another history of the database: \(why). Transitions since may have other positions: "
                + "read again from the start (leave `after` out) and skip the transitions you already have (same entrupy_id, kind and occurred_at)"
        }
    }
}
