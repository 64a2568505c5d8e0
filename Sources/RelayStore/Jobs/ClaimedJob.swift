import RelayCore

/// A job this worker holds a lease on. `attempt` counts this run (from 1).
public struct ClaimedJob: Sendable, Equatable {
    public var id: Int64
    public var kind: String
    public var args: JSONValue
    public var attempt: Int
    public var maxAttempts: Int

    public init(id: Int64, kind: String, args: JSONValue, attempt: Int, maxAttempts: Int) {
        self.id = id
        self.kind = kind
        self.args = args
        self.attempt = attempt
        self.maxAttempts = maxAttempts
    }
}
