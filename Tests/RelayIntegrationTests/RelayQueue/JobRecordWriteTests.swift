import Foundation
import PostgresNIO
import RelayDatabase
import RelayQueue
import Testing

/// A handler's write into a scratch table, for the finishing statement's record CTEs.
protocol ScratchMark: JobRecordWrite {
    var jobID: Int64 { get }
    var note: String { get }
}

extension ScratchMark {
    static func writeText(named name: String) -> String {
        ",\n\(name) AS (INSERT INTO scratch_marks (job_id, note) SELECT * FROM unnest(:\(name)_job_ids::bigint[], :\(name)_notes::text[]) "
            + "RETURNING job_id)"
    }

    static func setValues(_ batch: [Self], named name: String, in values: inout NamedBindings) {
        values.set(name + "_job_ids", batch.map(\.jobID))
        values.set(name + "_notes", batch.map(\.note))
    }
}

struct FirstMark: ScratchMark {
    static let recordName = "test_first_mark"
    var jobID: Int64
    var note: String
}

struct SecondMark: ScratchMark {
    static let recordName = "test_second_mark"
    var jobID: Int64
    var note: String
}

@Suite("Handlers' writes that finish with their jobs", .timeLimit(.minutes(2)))
struct JobRecordWriteTests {
    /// Two claimed runs, finished with the writes `records` makes for them; answers their new
    /// states and the marks stored.
    func finish(records: @escaping @Sendable (_ first: Int64, _ second: Int64) -> [any JobRecordWrite])
        async throws -> (states: [JobState?], marks: [String]) {
        try await TestDatabase.withFresh { db, client async throws in
            _ = try await client.query("CREATE TABLE scratch_marks (job_id bigint, note text CHECK (note <> 'refuse'))").collect()
            let queue = PostgresJobQueueFactory.make(client)
            try await queue.enqueue([try NewJob(PlainJob()), try NewJob(PlainJob())])
            let jobs = try await queue.claim(worker: "w", limit: 2, lease: .seconds(30), kinds: [PlainJob.kind])
            try #require(jobs.count == 2)
            let runs = jobs.map { JobFinish(id: $0.id, attempt: $0.attempt, outcome: .completed) }
            let states = (try? await client.withConnection { connection in
                try await PostgresJobQueue.finish(runs, records: records(jobs[0].id, jobs[1].id), worker: "w",
                                                  on: connection, logger: TestDatabase.logger)
            }) ?? [:]
            var marks: [String] = []
            for try await note in try await client.query("SELECT note FROM scratch_marks ORDER BY note").decode(String.self) {
                marks.append(note)
            }
            return (jobs.map { states[$0.id] }, marks)
        }
    }

    @Test func writesOfTwoTypesCommitWithTheirJobs() async throws {
        let result = try await finish { [FirstMark(jobID: $0, note: "a"), SecondMark(jobID: $1, note: "b")] }
        #expect(result.states == [.completed, .completed])
        #expect(result.marks == ["a", "b"])
    }

    /// One type's write refused: the other type's write (written first, in its own statement:
    /// types go in the order of their names, whatever the batch's order) and both jobs'
    /// outcomes are undone with it (the jobs stay running, so their leases end and they run again).
    @Test func aRefusedWriteOfOneTypeUndoesTheOtherAndTheJobs() async throws {
        let result = try await finish { [SecondMark(jobID: $1, note: "refuse"), FirstMark(jobID: $0, note: "a")] }
        #expect(result.states == [nil, nil])
        #expect(result.marks == [])
    }

    @Test func aWriteOfOneTypeIsOneStatement() async throws {
        let result = try await finish { [SecondMark(jobID: $0, note: "x"), SecondMark(jobID: $1, note: "y")] }
        #expect(result.states == [.completed, .completed])
        #expect(result.marks == ["x", "y"])
    }
}
