import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import RelayApp
import RelayModel
import RelayQueue
import RelayStore
import RelayWorker
import ServiceLifecycle

/// Enqueues N no-op jobs, then runs W workers until every job is completed, and prints jobs/s.
struct QueueBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue", abstract: "No-op job throughput.")

    @Option(help: "Jobs per run.") var jobs = 20_000
    @Option(help: "Worker counts to measure, comma-separated.") var workers = "1,4"
    @Option(help: "Jobs each worker runs at once (claims and records go in batches of half).") var concurrency = 128

    func run() async throws {
        guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"] else { throw ValidationError("DATABASE_URL is required") }
        let url = try DatabaseURL(parsing: text)
        var logger = Logger(label: "relay-bench")
        logger.logLevel = .warning
        let counts = workers.split(separator: ",").compactMap { Int($0) }
        for count in counts {
            let client = try DatabaseClientFactory.makeClient(url, poolSize: max(8, count * 4), logger: logger)
            let perSecond = try await withThrowingTaskGroup(of: Double?.self) { group in
                group.addTask { await client.run(); return nil }
                defer { group.cancelAll() }
                return try await measure(client: client, workers: count, logger: logger)
            }
            print(String(format: "queue: %d worker(s) x %d concurrency: %d no-op jobs, %.0f jobs/s", count, concurrency, jobs, perSecond))
        }
    }

    func measure(client: PostgresClient, workers count: Int, logger: Logger) async throws -> Double {
        let queue = PostgresJobQueue(client: client, logger: logger)
        try await queue.purge(kind: NoopJob.kind)
        // Start every run from a table without the last run's dead rows and with statistics
        // that know its rows (as autovacuum keeps them in service), so neither autovacuum's
        // timing nor a plan made for an empty table decides the figure.
        try await queue.vacuum()
        let job = try NewJob(NoopJob())
        for start in stride(from: 0, to: jobs, by: 5_000) {
            try await queue.enqueue(Array(repeating: job, count: min(5_000, jobs - start)))
        }
        try await queue.analyze()
        let runs = NoopHandler.Runs()
        let workerList = (0..<count).map { n in
            JobWorker(queue: queue, handlers: [AnyJobHandler(NoopHandler(runs: runs))],
                      configuration: JobWorkerConfiguration(workerID: "bench-\(n)", concurrency: concurrency, pollInterval: .milliseconds(50)),
                      logger: logger)
        }
        let group = ServiceGroup(configuration: .init(services: workerList.map { .init(service: $0) }, logger: logger))
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Double?.self) { tasks in
            tasks.addTask { try await group.run(); return nil }
            while true {
                // Until every job has run, nothing to ask the database; then read through the
                // queue's partial indexes until the last runs are recorded.
                guard runs.value >= jobs else {
                    try await Task.sleep(for: .milliseconds(2))
                    continue
                }
                if try await !PostgresJobQueue(client: client, logger: logger).hasUnfinished(kind: "noop") { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            let elapsed = ContinuousClock.now - start
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return Double(jobs) / seconds
        }
    }
}
