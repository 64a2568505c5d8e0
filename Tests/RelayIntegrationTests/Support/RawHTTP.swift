import NIOCore
import NIOPosix

/// Sends bytes no HTTP client library would send, and returns what came back until the
/// server closed the connection (or `limit` bytes, or `timeout`).
func rawHTTPExchange(port: Int, _ request: String, limit: Int = 1 << 16, timeout: Duration = .seconds(10)) async throws -> String {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
    return try await withThrowingTaskGroup(of: String?.self) { group in
        group.addTask {
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: request))
                var received = ""
                do {
                    for try await chunk in inbound {
                        received += String(buffer: chunk)
                        if received.utf8.count >= limit { break }
                    }
                } catch {
                    // A reset after the answer still leaves the answer.
                }
                return received
            }
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        guard let answer = first else { throw TestSetupError("no answer and no close within \(timeout)") }
        return answer
    }
}
