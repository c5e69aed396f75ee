import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Keeps a connection reading for a moment after SIGTERM, before it is told to wind down.
///
/// On shutdown the listener closes at once and every open connection is told to quiesce: one
/// with no request in progress is closed there and then. A request a client sent just before
/// the signal, still on its way through the loopback or the event loop, then meets a closed
/// socket, and the client gets a reset with no answer. Held back for `grace`, the quiesce finds
/// such a request read and being answered: it is answered whole, and every answer in the
/// meantime says `Connection: close`, so that the client sends nothing more on that connection.
final class DrainGrace: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let grace: TimeAmount
    private var draining = false
    private var held: Scheduled<Void>?

    init(grace: TimeAmount) {
        self.grace = grace
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, !draining else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        draining = true
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        held = context.eventLoop.scheduleTask(in: grace) {
            loopBound.value.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard draining, case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func release() {
        held?.cancel()
        held = nil
    }
}
