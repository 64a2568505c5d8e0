import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// A minimal client for a relay running as a separate process.
struct HTTPProbe: Sendable {
    let port: Int

    func status(_ path: String) async throws -> Int {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(2))
        return Int(response.status.code)
    }

    func body(_ path: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(5))
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

/// An unused loopback port (bound, read, released).
func freePort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress!.port!
    try await channel.close()
    return port
}
