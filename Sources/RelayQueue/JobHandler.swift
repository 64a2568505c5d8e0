public import RelayModel

/// Runs one kind of job, named by its `Args` type. Throwing counts as a retry with backoff;
/// the worker records the error.
public protocol JobHandler: Sendable {
    associatedtype Args: JobArgs
    func run(_ args: Args, context: JobContext) async throws -> JobResult
}

/// A handler with its argument type erased, so one worker runs several kinds.
public struct AnyJobHandler: Sendable {
    public let kind: String
    let body: @Sendable (ClaimedJob, JobContext) async throws -> JobResult

    public init<Handler: JobHandler>(_ handler: Handler) {
        kind = Handler.Args.kind
        body = { job, context in
            let args: Handler.Args
            do {
                args = try job.decode(Handler.Args.self)
            } catch {
                return .discard(error: "the job's arguments do not read as \(Handler.Args.self): \(error)")
            }
            return try await handler.run(args, context: context)
        }
    }

    func run(_ job: ClaimedJob, context: JobContext) async throws -> JobResult {
        try await body(job, context)
    }
}
