public import RelayModel

/// A job this worker holds a lease on. `attempt` counts this run (from 1); `crashes` counts
/// earlier runs whose worker died (the lease ran out while it ran).
public struct ClaimedJob: Sendable, Equatable {
    public var id: Int64
    public var kind: String
    /// The arguments as stored (a JSON object); `decode` reads them as the handler's type.
    public var args: String
    public var attempt: Int
    public var maxAttempts: Int
    public var crashes: Int
    /// The trace context of what enqueued it, continued by its run (`TraceParent`).
    public var traceParent: String?

    public init(id: Int64, kind: String, args: String, attempt: Int, maxAttempts: Int, crashes: Int = 0, traceParent: String? = nil) {
        self.id = id
        self.kind = kind
        self.args = args
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.crashes = crashes
        self.traceParent = traceParent
    }

    public func decode<Args: JobArgs>(_ type: Args.Type) throws -> Args {
        try JobArgsCoding.decode(type, from: args)
    }
}
