import NIOCore

/// Splits what the server sends into lines (CRLF or LF) and hands them to an async stream.
/// Sits after the TLS handler when there is one, so STARTTLS only inserts a handler in front.
final class SMTPLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    static let maxLineBytes = 8_192

    let continuation: AsyncThrowingStream<String, any Error>.Continuation
    private var buffer: [UInt8] = []
    /// Lines handed to the stream so far (read on the event loop, like everything here).
    private(set) var linesYielded = 0
    /// Bytes of a line not yet ended.
    var hasPartialLine: Bool { !buffer.isEmpty }

    init(continuation: AsyncThrowingStream<String, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        buffer += bytes.readBytes(length: bytes.readableBytes) ?? []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            continuation.yield(String(decoding: line, as: UTF8.self))
            linesYielded += 1
            buffer.removeSubrange(...newline)
        }
        if buffer.count > Self.maxLineBytes {
            continuation.finish(throwing: SMTPError.protocolViolation("a reply line longer than \(Self.maxLineBytes) bytes"))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: SMTPError.connection("\(error)"))
        context.close(promise: nil)
    }
}
