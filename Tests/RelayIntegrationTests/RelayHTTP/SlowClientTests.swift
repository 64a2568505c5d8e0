import Foundation
import NIOCore
import NIOPosix
import RelayModel
import Testing

/// Clients that drip, stall or pile up: they get bounded answers, and never keep a process
/// from shutting down within its grace period (issue 10, defect 5).
@Suite("Slow clients and bounded shutdown", .timeLimit(.minutes(3)))
struct SlowClientTests {
    static let dripHead = "POST /webhooks/entrupy HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n"
        + "Entrupy-Signature: sha256=00\r\nContent-Length: 100000\r\n\r\n{"

    static let dripForm = "POST /console/login HTTP/1.1\r\nHost: relay\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: 1000\r\n\r\ncsrf="

    /// One byte every half second resets the server's idle timer each time; the whole-body
    /// deadline answers 408 and closes the connection anyway.
    @Test func aDrippedBodyGets408WithinTheBodyDeadline() async throws {
        try await TestRelay.withFresh(env: ["ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS": "2", "ENTRUPY_RELAY_HTTP_IDLE_TIMEOUT_SECONDS": "30"]) { relay async throws in
            let drip = try await dripHTTP(port: relay.port, head: Self.dripHead, limit: .seconds(20))
            #expect(drip.answer.hasPrefix("HTTP/1.1 408"), "\(drip.answer.prefix(200))")
            #expect(drip.answer.contains("did not arrive within 2 s"))
            #expect(drip.closed, "the connection is closed, not kept for the rest of the drip")
            #expect(drip.elapsed < .seconds(8), "\(drip.elapsed)")
            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 0)
            // Every route's body has the deadline: a dripped sign-in form is a 408 too, not a 413.
            let form = try await dripHTTP(port: relay.port, head: Self.dripForm, limit: .seconds(20))
            #expect(form.answer.hasPrefix("HTTP/1.1 408"), "\(form.answer.prefix(200))")
            #expect(form.answer.contains("did not arrive within 2 s"))
            #expect(form.closed)
            #expect(form.elapsed < .seconds(8), "\(form.elapsed)")
            // The relay still serves everyone else.
            let fixture = WebhookFixture.session(1, run: UUID().uuidString)
            #expect(try await relay.post(fixture).status == 200)
        }
    }

    /// Over ENTRUPY_RELAY_HTTP_MAX_CONNECTIONS a new connection waits to be accepted: answered once another
    /// one closes, not refused or served beyond the cap.
    @Test func connectionsOverTheCapWaitForAFreeOne() async throws {
        try await TestRelay.withFresh(env: ["ENTRUPY_RELAY_HTTP_MAX_CONNECTIONS": "2"]) { relay async throws in
            try await withHeldConnections(port: relay.port, count: 2) { release async throws in
                let request = "GET /healthz HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n"
                await #expect(throws: (any Error).self, "not answered while both slots are held") {
                    _ = try await rawHTTPExchange(port: relay.port, request, timeout: .seconds(1))
                }
                await release()
                let answer = try await rawHTTPExchange(port: relay.port, request, timeout: .seconds(10))
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(100))")
            }
        }
    }

    /// SIGTERM while a client drips a body slower than any deadline would end it: `serve`
    /// still exits within ENTRUPY_RELAY_SHUTDOWN_GRACE_SECONDS and a few seconds of cancellation.
    @Test func sigtermEndsServeWithinItsGraceDespiteADrip() async throws {
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            let process = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: db, env: [
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_SHUTDOWN_GRACE_SECONDS": "2",
                "ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS": "300", "ENTRUPY_RELAY_HTTP_IDLE_TIMEOUT_SECONDS": "300",
            ])
            let probe = HTTPProbe(port: port)
            _ = try await eventually(timeout: .seconds(20)) { (try? await probe.status("/readyz")) == 200 || !process.isRunning }
            #expect(process.isRunning)
            let drip = Task { try await dripHTTP(port: port, head: Self.dripHead, interval: .milliseconds(200), limit: .seconds(60)) }
            try await Task.sleep(for: .seconds(1))
            let stopped = ContinuousClock.now
            process.kill(SIGTERM)
            let status = await process.waitForExit()
            let took = ContinuousClock.now - stopped
            drip.cancel()
            #expect(took < .seconds(12), "serve took \(took) to exit")
            #expect(status == 0 || status == 1, "exited by itself (status \(status)), not killed")
            #expect(process.process.terminationReason == .exit)
        }
    }

    /// The worker's operations port (`worker --port`) drops a client that says nothing.
    @Test func theWorkersOperationsPortDropsAnIdleClient() async throws {
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            let process = try RelayProcess(["worker", "--port", String(port)], database: db, env: [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": "http://127.0.0.1:9", "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "unused", "ENTRUPY_RELAY_HTTP_IDLE_TIMEOUT_SECONDS": "1",
                "ENTRUPY_RELAY_SHUTDOWN_GRACE_SECONDS": "5",
            ])
            let probe = HTTPProbe(port: port)
            _ = try await eventually(timeout: .seconds(20)) { (try? await probe.status("/healthz")) == 200 || !process.isRunning }
            #expect(process.isRunning)
            let started = ContinuousClock.now
            // Half a request line, then silence: the server must close within its idle timeout.
            let answer = try await rawHTTPExchange(port: port, "GET /heal", timeout: .seconds(15))
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(!answer.contains("200 OK"))
            process.kill(SIGTERM)
            #expect(await process.waitForExit() == 0)
        }
    }
}

/// Holds `count` idle connections open to `port` until `body` calls its release function
/// (which closes one of them), then closes the rest.
func withHeldConnections<T: Sendable>(port: Int, count: Int,
                                      _ body: @escaping @Sendable (@escaping @Sendable () async -> Void) async throws -> T) async throws -> T {
    var channels: [any Channel] = []
    for _ in 0..<count {
        channels.append(try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get())
    }
    // Give the server a moment to accept them (accepting is what the cap counts).
    try await Task.sleep(for: .milliseconds(300))
    let held = channels
    defer { for channel in held { channel.close(promise: nil) } }
    return try await body { try? await held[0].close() }
}
