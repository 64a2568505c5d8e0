import Foundation
import Glibc
import RelayRuntime
import Testing

/// `Type=notify`: the state reaches the socket systemd names, a path or an abstract name.
@Suite("Telling systemd")
struct SystemdNotifierTests {
    /// A datagram socket bound to `name` (a leading NUL: abstract), as systemd's; answers what it received.
    static func receive(bound name: [UInt8], _ send: () -> Bool) throws -> String? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sa_family_t>.size + name.count)) }
        }
        try #require(bound == 0)
        #expect(send())
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    @Test func readyReachesASocketNamedByPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
        defer { unlink(path) }
        #expect(try Self.receive(bound: Array(path.utf8)) { SystemdNotifier.notify("READY=1", socket: path) } == "READY=1")
    }

    @Test func anAbstractNameIsWrittenWithAnAt() throws {
        let name = "relay-notify-\(UUID().uuidString.prefix(8))"
        #expect(try Self.receive(bound: [0] + Array(name.utf8)) { SystemdNotifier.notify("STOPPING=1", socket: "@" + name) } == "STOPPING=1")
    }

    @Test func withoutASocketNothingIsSent() {
        #expect(!SystemdNotifier.notify("READY=1", socket: nil))
        #expect(!SystemdNotifier.notify("READY=1", socket: ""))
        #expect(!SystemdNotifier.notify("READY=1", socket: "/" + String(repeating: "x", count: 200)), "longer than a socket address holds")
    }
}
