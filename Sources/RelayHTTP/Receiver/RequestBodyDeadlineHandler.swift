import HTTPTypes
public import NIOCore
public import NIOHTTPTypes

/// Bounds how long a request's body may take to arrive, from its head to its end, timed on
/// the connection's own event loop. Hummingbird's idle timer restarts with every chunk, so a
/// body dripped a byte at a time would otherwise hold its request (and a body slot) for ever.
/// When the time is up the reader of the body gets `RequestBodyTimeout` (the receiver answers
/// 408 and closes the connection; other routes answer 408 through the error middleware).
///
/// The time counts the network's part: a handler that reads its body late (every route here
/// reads it first) or a pipelined request queued behind a slow one could see NIO stop reading
/// the socket, and so the body's end arrive late, through no fault of the client.
///
/// A body that is complete when its head is read costs a timer scheduled and cancelled on
/// the loop that reads it: no task, no thread hop, no timer left pending. Timing the body
/// inside the handler instead (a task racing a sleep) cost about 6 % of the receiver's CPU.
public final class RequestBodyDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart

    private let limit: Duration
    private var timer: Scheduled<Void>?

    public init(limit: Duration) {
        self.limit = limit
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            timer?.cancel()
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let limit = self.limit
            timer = context.eventLoop.scheduleTask(in: TimeAmount(limit)) {
                bound.value.fireErrorCaught(RequestBodyTimeout(limit: limit))
            }
        case .end:
            disarm()
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
