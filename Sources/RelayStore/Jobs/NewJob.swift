import Foundation
import RelayCore

/// A job to enqueue. With a `uniqueKey`, it is not enqueued while another unfinished job
/// has the same key (the insert is skipped, not failed).
public struct NewJob: Sendable, Equatable {
    public var kind: String
    public var args: JSONValue
    public var uniqueKey: String?
    public var runAfter: Duration
    public var maxAttempts: Int

    public init(kind: String, args: JSONValue = .object([:]), uniqueKey: String? = nil, runAfter: Duration = .zero, maxAttempts: Int = 25) {
        self.kind = kind
        self.args = args
        self.uniqueKey = uniqueKey
        self.runAfter = runAfter
        self.maxAttempts = maxAttempts
    }
}
