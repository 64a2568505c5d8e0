import RelayModel
import Synchronization

/// A fetch lease the event's read took, handed on at most once: to the run that fetches
/// (`handOn`), or else ended by the handler (`unclaimed`).
final class LeaseClaim: Sendable {
    private let lease: FetchLease
    private let handedOn = Mutex(false)

    init(_ lease: FetchLease) {
        self.lease = lease
    }

    /// The lease, for the run that fetches; it ends it.
    func handOn() -> FetchLease {
        handedOn.withLock { $0 = true }
        return lease
    }

    /// The lease when no run took it over.
    var unclaimed: FetchLease? {
        handedOn.withLock { $0 } ? nil : lease
    }
}
