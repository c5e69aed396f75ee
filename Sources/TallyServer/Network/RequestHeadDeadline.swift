import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request's head has not arrived whole within `deadline` of the
/// connection opening, or of the last answer it was waiting for. A client that sends its
/// headers a byte every few seconds is never idle, so the idle timeout never comes: without
/// this, a thousand such sockets hold every file descriptor the server has, and /health stops
/// answering. A request being answered (a long upload, a stream of changes) is never cut.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    /// Requests whose head came and whose answer has not ended (more than one when pipelined).
    private var answering = 0
    private var closing: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            answering += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answering = max(0, answering - 1)
            if answering == 0 { arm(context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        closing = context.eventLoop.scheduleTask(in: deadline) { loopBound.value.close(promise: nil) }
    }

    private func disarm() {
        closing?.cancel()
        closing = nil
    }
}
