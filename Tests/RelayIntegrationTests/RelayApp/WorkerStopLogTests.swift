import Logging
import RelayQueue
import ServiceLifecycle
import Testing

/// A graceful stop ends with the worker cancelling its maintenance and lease renewal. A query
/// they had under way then throws `CancellationError`, which is the stop, not a failure: before
/// it was said so, relay-bench printed "job maintenance failed error=CancellationError()" after
/// some of its runs, and so would every worker stopped mid-pass.
@Suite("A worker's stop", .timeLimit(.minutes(2)), .serialized)
struct WorkerStopLogTests {
    @Test func aMaintenancePassCutShortByTheStopIsNotReportedAsAFailure() async throws {
        try await withQueue { queue, db in
            let logs = CapturedLogs()
            let logger = logs.logger(label: "worker-stop-tests")
            // A pass every millisecond: the worker is nearly always inside one when it stops.
            let rounds = 15
            for round in 1...rounds {
                try await queue.enqueue(try (0..<16).map { _ in try NewJob(PlainJob()) })
                let worker = JobWorker(queue: queue, handlers: [AnyJobHandler(BriefHandler())],
                                       configuration: JobWorkerConfiguration(workerID: "stop-\(round)", concurrency: 8,
                                                                             pollInterval: .milliseconds(20),
                                                                             maintenanceInterval: .milliseconds(1)),
                                       logger: logger)
                let group = ServiceGroup(configuration: .init(services: [.init(service: worker)], logger: logger))
                let running = Task { try await group.run() }
                #expect(try await eventually(timeout: .seconds(20)) {
                    try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE state = 'completed'") == round * 16
                })
                await group.triggerGracefulShutdown()
                try await running.value
            }
            #expect(logs.matching("worker stopped").count == rounds)
            #expect(logs.matching("job maintenance failed").isEmpty, "\(logs.matching("job maintenance failed").prefix(3))")
            #expect(logs.matching("renewing leases failed").isEmpty)
        }
    }
}
