import Foundation

/// Polls `condition` until it holds or `timeout` passes; returns whether it held. Used to wait
/// for asynchronous work (a webhook reconciled) without fixed sleeps.
func eventually(timeout: Duration = .seconds(15), every interval: Duration = .milliseconds(50),
                _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return try await condition()
}
