import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A minimal client for a relay running as a separate process.
struct HTTPProbe: Sendable {
    let port: Int
    var host = "127.0.0.1"

    func status(_ path: String) async throws -> Int {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://\(host):\(port)\(path)"), timeout: .seconds(2))
        return Int(response.status.code)
    }

    func body(_ path: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://\(host):\(port)\(path)"), timeout: .seconds(5))
        return String(buffer: try await response.body.collect(upTo: 1 << 22))
    }

    func post(_ fixture: WebhookFixture) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/webhooks/entrupy")
        request.method = .POST
        for (name, value) in fixture.headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: fixture.body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(3))
        return Int(response.status.code)
    }
}

/// An unused loopback port for a server a test starts later (a Python sink, a relay whose
/// address the simulator must know first).
///
/// It comes from below the kernel's ephemeral range (32768-60999 here), never from `bind(0)`:
/// a port the kernel handed out and took back is free for the kernel to hand out again, to any
/// outgoing connection of the suite (thousands, to PostgreSQL alone) or to the next `bind(0)`,
/// before the test's server binds it. A relay that then failed to bind left a CI run waiting
/// for its port until the suite's time limit. Ports here are handed out in turn from a random
/// start, so two tests of one run never get the same one, and each is checked free.
func freePort() async throws -> Int {
    for _ in 0..<PortAllocator.range.count {
        let port = PortAllocator.next()
        guard let channel = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: port).get() else { continue }
        try await channel.close()
        return port
    }
    throw TestSetupError("no free loopback port in \(PortAllocator.range)")
}

/// The turn counter behind `freePort()`.
enum PortAllocator {
    static let range = 20_000..<32_000
    private static let counter = Mutex(Int.random(in: 0..<range.count))

    static func next() -> Int {
        counter.withLock { turn in
            turn = (turn + 1) % range.count
            return range.lowerBound + turn
        }
    }
}
