import EntrupyAPI
import RelayQueue

extension EntrupyAPIError {
    /// How a reconcile job answers this error when it is not a 404 (which each job judges by
    /// its own window): a 429 waits its Retry-After without spending an attempt; everything
    /// else backs off.
    var jobResult: JobResult {
        if case .rateLimited(let after) = self { return .snooze(after ?? .seconds(1)) }
        return .retry(error: description)
    }
}
