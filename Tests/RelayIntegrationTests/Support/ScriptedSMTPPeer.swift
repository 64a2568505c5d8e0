import Foundation
import NIOCore
import NIOPosix

/// A hostile SMTP peer on a loopback port: sends `greeting` (nil: nothing), then answers each
/// line the client sends with what `reply` returns for it (nil: say nothing), written as one
/// chunk. Two answers are actions: `DRIP:text` sends the text a byte every 200 ms, and `RESET`
/// resets the connection.
func withScriptedSMTPPeer<T: Sendable>(greeting: String? = "220 scripted.test ESMTP\r\n",
                                       reply: @escaping @Sendable (String) -> String?,
                                       _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
    try await withLoopbackServer(childHandler: { ScriptedSMTPHandler(greeting: greeting, reply: reply) }, body)
}

private final class ScriptedSMTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let greeting: String?
    let reply: @Sendable (String) -> String?
    private var pending: [UInt8] = []

    init(greeting: String?, reply: @escaping @Sendable (String) -> String?) {
        self.greeting = greeting
        self.reply = reply
    }

    func channelActive(context: ChannelHandlerContext) {
        if let greeting { answer(greeting, context: context) }
    }

    private func answer(_ text: String, context: ChannelHandlerContext) {
        if text == "RESET" {
            resetConnection(context.channel)
        } else if text.hasPrefix("DRIP:") {
            Self.drip(Array(text.dropFirst(5).utf8), on: context.channel)
        } else {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
        }
    }

    private static func drip(_ bytes: [UInt8], on channel: any Channel) {
        guard let first = bytes.first, channel.isActive else { return }
        channel.writeAndFlush(ByteBuffer(bytes: [first]), promise: nil)
        channel.eventLoop.scheduleTask(in: .milliseconds(200)) { drip(Array(bytes.dropFirst()), on: channel) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        pending += bytes.readBytes(length: bytes.readableBytes) ?? []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .init(charactersIn: "\r"))
            pending.removeSubrange(...newline)
            if let text = reply(line) { answer(text, context: context) }
        }
    }
}
