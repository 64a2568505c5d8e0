import Foundation
import NIOCore
import NIOPosix

/// A callback target that misbehaves in every way a real one might, chosen by the path:
/// `/silent` (reads the request, never answers), `/drip` (a 200 whose body comes a byte at a
/// time), `/reset` (a TCP reset instead of an answer), `/huge` (200 with 10 MB), `/gzip` (a
/// gzip body full of NULs), `/nul` (200 `\0ok`), `/garbage` (not HTTP at all),
/// `/retry-after/VALUE` (503 with that Retry-After, percent-decoded), `/redirect/…` (302 to a URL
/// with a secret in it), `/dripping/…` (like `/drip`, for any path below), `/silent/…` (like
/// `/silent`), `/refuse/…` (400 with a body naming an internal detail, as an API that
/// explains too much). Counts requests per path.
final class HostileHTTPPeer: Sendable {
    let port: Int
    let counts: RequestCounts

    private init(port: Int, counts: RequestCounts) {
        self.port = port
        self.counts = counts
    }

    static func with<T: Sendable>(_ body: @escaping @Sendable (HostileHTTPPeer) async throws -> T) async throws -> T {
        let counts = RequestCounts()
        return try await withLoopbackServer(childHandler: { HostileHandler(counts: counts) }) { port in
            try await body(HostileHTTPPeer(port: port, counts: counts))
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}

final class RequestCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var byPath: [String: Int] = [:]
    func add(_ path: String) { lock.withLock { byPath[path, default: 0] += 1 } }
    func count(_ path: String) -> Int { lock.withLock { byPath[path, default: 0] } }
}

private final class HostileHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let counts: RequestCounts
    private var head: [UInt8] = []
    private var answered = false

    init(counts: RequestCounts) { self.counts = counts }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        var bytes = unwrapInboundIn(data)
        head += bytes.readBytes(length: bytes.readableBytes) ?? []
        guard let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        answered = true
        let requestLine = String(decoding: head[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let path = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        counts.add(path)
        respond(to: path, context: context)
    }

    private func write(_ context: ChannelHandlerContext, _ bytes: [UInt8], close: Bool = true) {
        let future = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)))
        if close { future.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
    }

    private func respond(to path: String, context: ChannelHandlerContext) {
        switch path {
        case "/silent":
            return
        case "/drip":
            write(context, Array("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n".utf8), close: false)
            Self.drip(context.channel, remaining: 100_000)
        case "/reset":
            resetConnection(context.channel)
        case "/huge":
            let size = 10 << 20
            write(context, Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n".utf8), close: false)
            write(context, [UInt8](repeating: UInt8(ascii: "x"), count: size))
        case "/gzip":
            // A gzip-encoded body (binary, NUL bytes included), as a server that compresses regardless sends.
            let gzip: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03, 0x63, 0x60, 0x18, 0x05, 0xa3, 0x60, 0x14, 0x0c,
                                 0x77, 0x00, 0x00, 0xd3, 0x7e, 0x0f, 0xfb, 0x00, 0x02, 0x00, 0x00]
            write(context, Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count)\r\nConnection: close\r\n\r\n".utf8) + gzip)
        case "/nul":
            write(context, Array("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\n".utf8) + [0, UInt8(ascii: "o"), UInt8(ascii: "k")])
        case "/garbage":
            write(context, [0, 1, 2] + Array(" not http at all\r\n\r\n".utf8))
        default:
            if path.hasPrefix("/silent/") {
                return
            } else if path.hasPrefix("/refuse/") {
                let body = #"{"detail":"INTERNAL-DETAIL db=10.0.0.5 user=svc_entrupy"}"#
                write(context, Array("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8))
            } else if path.hasPrefix("/redirect/") {
                write(context, Array("HTTP/1.1 302 Found\r\nLocation: https://elsewhere.example/hook?token=LEAKED-SECRET\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            } else if path.hasPrefix("/dripping/") {
                // Any path below it: a 200 whose body comes a byte at a time (an API that drips).
                write(context, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n".utf8), close: false)
                Self.drip(context.channel, remaining: 100_000)
            } else if path.hasPrefix("/retry-after/") {
                let value = String(path.dropFirst("/retry-after/".count)).removingPercentEncoding ?? ""
                write(context, Array("HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(value)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            } else {
                write(context, Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8))
            }
        }
    }

    private static func drip(_ channel: any Channel, remaining: Int) {
        guard remaining > 0, channel.isActive else { return }
        channel.eventLoop.scheduleTask(in: .milliseconds(200)) {
            channel.writeAndFlush(ByteBuffer(string: "x"), promise: nil)
            drip(channel, remaining: remaining - 1)
        }
    }
}

/// Closes with SO_LINGER 0: the peer sees a TCP reset, not an orderly close.
func resetConnection(_ channel: any Channel) {
    guard let provider = channel as? any SocketOptionProvider else {
        channel.close(promise: nil)
        return
    }
    provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
}
