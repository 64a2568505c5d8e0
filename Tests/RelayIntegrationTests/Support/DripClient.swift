import NIOCore
import NIOPosix

/// A client that sends `head` and then one byte of body every `interval`, until the server
/// answers and closes, or `limit` passes. Returns what came back and when the connection ended.
func dripHTTP(port: Int, head: String, interval: Duration = .milliseconds(500),
              limit: Duration = .seconds(30)) async throws -> (answer: String, elapsed: Duration, closed: Bool) {
    let started = ContinuousClock.now
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
    return try await channel.executeThenClose { inbound, outbound in
        try await outbound.write(ByteBuffer(string: head))
        return await withTaskGroup(of: (String, Bool)?.self) { group in
            group.addTask {
                var received = ""
                do {
                    for try await chunk in inbound { received += String(buffer: chunk) }
                } catch {
                    // A reset after the answer still leaves the answer.
                }
                return (received, true)
            }
            group.addTask {
                while ContinuousClock.now - started < limit {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { return nil }
                    do { try await outbound.write(ByteBuffer(string: "x")) } catch { return nil }
                }
                return ("", false)
            }
            var result: (String, Bool)?
            while let next = await group.next() {
                if let next { result = next; break }
            }
            group.cancelAll()
            return (result?.0 ?? "", ContinuousClock.now - started, result?.1 ?? false)
        }
    }
}
