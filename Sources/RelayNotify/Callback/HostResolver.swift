import Foundation
import NIOPosix
public import RelayModel
#if canImport(Glibc)
import Glibc
#endif

/// Resolves a host name to its addresses with getaddrinfo, on NIO's thread pool so the
/// blocking call never occupies a Swift concurrency thread.
public enum HostResolver {
    public static func resolve(_ host: String) async throws -> [IPAddress] {
        if let literal = IPAddress(host) { return [literal] }
        return try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &result)
            guard status == 0, let first = result else {
                throw CallbackError.unresolvable(host: host, reason: String(cString: gai_strerror(status)))
            }
            defer { freeaddrinfo(first) }
            var addresses: [IPAddress] = []
            var cursor: UnsafeMutablePointer<addrinfo>? = first
            while let entry = cursor {
                var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count),
                               nil, 0, NI_NUMERICHOST) == 0,
                   let address = IPAddress(String(cString: buffer)) {
                    addresses.append(address)
                }
                cursor = entry.pointee.ai_next
            }
            return addresses
        }
    }
}
