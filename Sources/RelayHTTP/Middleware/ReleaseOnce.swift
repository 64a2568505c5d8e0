import Hummingbird
import Synchronization

/// Gives back what a request holds (a token's slot, an export's) exactly once: when its
/// response body has been written or failed, or, should the server drop the response
/// unwritten (the client went away first), when the last reference to it goes.
final class ReleaseOnce: Sendable {
    private let action: Mutex<(@Sendable () async -> Void)?>

    init(_ action: @escaping @Sendable () async -> Void) {
        self.action = Mutex(action)
    }

    func run() async {
        if let action = action.withLock({ action in defer { action = nil }; return action }) { await action() }
    }

    deinit {
        if let action = action.withLock({ $0 }) { Task { await action() } }
    }
}

extension Response {
    /// This response, running `release` once its body has been written (a streamed body's
    /// whole length, not just the handler's return).
    func releasing(_ release: ReleaseOnce) -> Response {
        var response = self
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
                await release.run()
            } catch {
                await release.run()
                throw error
            }
        }
        return response
    }
}
