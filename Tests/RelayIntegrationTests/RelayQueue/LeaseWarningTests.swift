import Foundation
import Logging
import RelayQueue
import Synchronization
import Testing

/// Holds each run until the test lets it go.
struct GatedHandler: JobHandler {
    static let gate = Mutex<Bool>(false)

    func run(_ args: PlainJob, context: JobContext) async throws -> JobResult {
        while !Self.gate.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        return .completed
    }
}

/// Finishes each run after a millisecond or two.
struct BriefHandler: JobHandler {
    func run(_ args: PlainJob, context: JobContext) async throws -> JobResult {
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...3)))
        return .completed
    }
}

/// What a worker says about its leases: a lease another worker took is reported, twice (by the
/// renewal while the run goes on, and by the record that finds it gone); runs whose outcome is
/// being recorded while a renewal runs are not.
@Suite("Lease warnings", .timeLimit(.minutes(2)), .serialized)
struct LeaseWarningTests {
    @Test func aLeaseTakenFromARunningJobIsReportedByTheRenewalAndByTheRecord() async throws {
        try await withQueue { queue, db in
            let logs = CapturedLogs()
            GatedHandler.gate.withLock { $0 = false }
            try await queue.enqueue([try NewJob(PlainJob())])
            let worker = JobWorker(queue: queue, handlers: [AnyJobHandler(GatedHandler())],
                                   configuration: JobWorkerConfiguration(concurrency: 1, lease: .milliseconds(600),
                                                                         pollInterval: .milliseconds(50)),
                                   logger: logs.logger(label: "lease-warning-tests"))
            let running = Task { try await worker.run() }
            defer { running.cancel() }
            #expect(try await eventually(timeout: .seconds(10)) {
                try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE state = 'running'") == 1
            })
            _ = try await TestDatabase.scalar(db, "WITH taken AS (UPDATE jobs SET leased_by = 'another-worker' RETURNING 1) SELECT count(*) FROM taken")
            #expect(try await eventually(timeout: .seconds(10)) { !logs.matching("lost the lease on running jobs").isEmpty })
            GatedHandler.gate.withLock { $0 = true }
            #expect(try await eventually(timeout: .seconds(10)) { !logs.matching("outcome was not recorded").isEmpty })
            // As the warning says, the job runs again: once the taken lease expires, it is rescued and claimed anew.
            #expect(try await eventually(timeout: .seconds(30)) {
                try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE state = 'completed' AND attempt >= 2") == 1
            })
        }
    }

    @Test func runsBeingRecordedWhileLeasesAreRenewedAreNotReportedLost() async throws {
        try await withQueue { queue, db in
            let logs = CapturedLogs()
            try await queue.enqueue(try (0..<5000).map { _ in try NewJob(PlainJob()) })
            // A renewal every 667 ms (some four while 5,000 runs finish and are recorded here,
            // dozens under CI's load). Shorter leases ran out for real under the whole suite's
            // load in CI (150 ms, then 600 ms: a renewal waited over 400 ms for the loaded
            // machine) and the rescue took runs being recorded: the lease doing its job, not the
            // race this test is about.
            let worker = JobWorker(queue: queue, handlers: [AnyJobHandler(BriefHandler())],
                                   configuration: JobWorkerConfiguration(concurrency: 16, lease: .seconds(2),
                                                                         pollInterval: .milliseconds(50)),
                                   logger: logs.logger(label: "lease-warning-tests"))
            let running = Task { try await worker.run() }
            defer { running.cancel() }
            #expect(try await eventually(timeout: .seconds(100)) {
                try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE state = 'completed'") == 5000
            })
            #expect(logs.matching("lost the lease").isEmpty, "\(logs.matching("lost the lease").prefix(3))")
            #expect(logs.matching("outcome was not recorded").isEmpty)
        }
    }
}
