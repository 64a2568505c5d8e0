import Foundation
import NIOCore
import NIOPosix

/// A hostile SMTP peer on a loopback port: greets, then answers each line the client sends
/// with what `reply` returns for it (nil: say nothing), written as one chunk.
func withScriptedSMTPPeer<T: Sendable>(reply: @escaping @Sendable (String) -> String?,
                                       _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .childChannelInitializer { child in
            child.eventLoop.makeCompletedFuture {
                try child.pipeline.syncOperations.addHandler(ScriptedSMTPHandler(reply: reply))
            }
        }
        .bind(host: "127.0.0.1", port: 0).get()
    do {
        let result = try await body(channel.localAddress!.port!)
        try? await channel.close()
        return result
    } catch {
        try? await channel.close()
        throw error
    }
}

private final class ScriptedSMTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let reply: @Sendable (String) -> String?
    private var pending: [UInt8] = []

    init(reply: @escaping @Sendable (String) -> String?) { self.reply = reply }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "220 scripted.test ESMTP\r\n")), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        pending += bytes.readBytes(length: bytes.readableBytes) ?? []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .init(charactersIn: "\r"))
            pending.removeSubrange(...newline)
            if let answer = reply(line) {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
            }
        }
    }
}
