#if canImport(Glibc)
import Glibc
#endif
public import Foundation
import RelayModel

/// Tells systemd how the service is doing (`Type=notify` units): `READY=1` once it serves,
/// `STOPPING=1` when a shutdown begins. A datagram to the socket systemd names in
/// `NOTIFY_SOCKET` (a path, or an abstract name written with a leading `@`); without one (not
/// under systemd, or a unit of another type) nothing is sent. Never throws: a service that
/// cannot tell systemd still runs (systemd's start timeout says the rest).
public enum SystemdNotifier {
    @discardableResult
    public static func notify(_ state: String, socket path: String? = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"]) -> Bool {
        #if canImport(Glibc)
        guard let path, !path.isEmpty else { return false }
        var name = Array(path.utf8)
        if name[0] == UInt8(ascii: "@") { name[0] = 0 }
        var address = sockaddr_un()
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
        return sent == message.count
        #else
        return false
        #endif
    }
}
