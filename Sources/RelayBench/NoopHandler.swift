import RelayModel
import RelayQueue
import Synchronization

/// The arguments of a job that does nothing.
struct NoopJob: JobArgs {
    static let kind = "noop"
}

/// A job that does nothing: what is measured is the queue's own cost per job. It counts its
/// runs, so the benchmark asks the database whether the queue is drained only once every job
/// has run (asking all along competed with the workers for the cluster).
struct NoopHandler: JobHandler {
    final class Runs: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }

    let runs: Runs

    func run(_ args: NoopJob, context: JobContext) async throws -> JobResult {
        runs.add()
        return .completed
    }
}
