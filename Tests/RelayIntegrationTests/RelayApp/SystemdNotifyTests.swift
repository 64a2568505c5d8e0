import Foundation
import Glibc
import Testing

/// `Type=notify` units: `serve` says READY=1 once its port takes requests and STOPPING=1 when
/// SIGTERM begins its graceful shutdown, to the socket systemd names in NOTIFY_SOCKET.
@Suite("serve under systemd's notify protocol", .timeLimit(.minutes(2)))
struct SystemdNotifyTests {
    /// A datagram socket bound to a fresh path, as systemd's notify socket is.
    final class NotifySocket: Sendable {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
        let descriptor: Int32

        init() throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            try #require(descriptor >= 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let name = Array(path.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sa_family_t>.size + name.count)) }
            }
            try #require(bound == 0)
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        /// The next message, polling up to `timeout`.
        func next(timeout: Duration) async throws -> String? {
            let deadline = ContinuousClock.now + timeout
            var buffer = [UInt8](repeating: 0, count: 512)
            while ContinuousClock.now < deadline {
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { return String(decoding: buffer.prefix(count), as: UTF8.self) }
                try await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
    }

    @Test func serveSaysReadyWhenItServesAndStoppingWhenTermed() async throws {
        let notify = try NotifySocket()
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            let process = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: db,
                                           env: ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "NOTIFY_SOCKET": notify.path])
            #expect(try await notify.next(timeout: .seconds(30)) == "READY=1", "\(String(decoding: (try? Data(contentsOf: process.log)) ?? Data(), as: UTF8.self))")
            // Ready means ready: the port answers at once.
            #expect(try await HTTPProbe(port: port).status("/healthz") == 200)
            process.kill(SIGTERM)
            #expect(try await notify.next(timeout: .seconds(10)) == "STOPPING=1")
            #expect(await process.waitForExit() == 0)
        }
    }
}
