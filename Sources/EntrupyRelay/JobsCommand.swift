import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayQueue
import RelayStore

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "Inspect and retry queued work.", subcommands: [List.self, Retry.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List jobs, newest first.")

        @Option(help: "Only jobs in this state: available, running, retryable, completed or dead.")
        var state: String?

        @Option(help: "How many jobs to show (1 to 10000).")
        var limit: Int = 50

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func validate() throws {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
            if let state, JobState(rawValue: state) == nil {
                throw ValidationError("--state must be one of \(JobState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let state = self.state.flatMap(JobState.init(rawValue:)), limit = self.limit
            let jobs = try await CommandEnvironment.database(environment) { client in
                try await PostgresJobQueue(client: client, logger: logger).list(state: state, limit: limit)
            }
            if json {
                print(try OutputFormat.json(jobs.map(JobJSON.init)))
                return
            }
            let formatter = ISO8601DateFormatter()
            let rows = jobs.map { job in
                [String(job.id), job.kind, job.state.rawValue, "\(job.attempt)/\(job.maxAttempts)", formatter.string(from: job.scheduledAt),
                 job.lastError ?? "-"]
            }
            print(rows.isEmpty ? "no jobs" : OutputFormat.render(header: ["ID", "KIND", "STATE", "ATTEMPTS", "SCHEDULED", "LAST ERROR"], rows: rows))
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run a dead or waiting job again now.")

        @Argument(help: "The job ID.")
        var id: Int64

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let id = self.id
            let outcome = try await CommandEnvironment.database(environment) { client in
                try await PostgresJobQueue(client: client, logger: logger).retry(id: id)
            }
            switch outcome {
            case .scheduled: print("job \(id) will run again now")
            case .notFound: CommandEnvironment.fail("job \(id) does not exist")
            case .notRetryable(let state): CommandEnvironment.fail("job \(id) is \(state); only dead, retryable or available jobs can be retried")
            case .duplicatePending: CommandEnvironment.fail("job \(id) cannot run again: another job for the same work is pending")
            }
        }
    }
}
