import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not finished arriving within ``deadline`` of the
/// connection's start, or of the end of the answer to its previous request, however slowly it
/// trickles in. The idle read timeout alone let a client hold a connection for ever by sending
/// one byte of its body every few seconds (each byte is a body part, so activity); a header
/// sent byte by byte was cut off only by it. Also registers the connection with
/// ``SlowConnections``, which closes the longest-waiting one when the endpoint is full.
///
/// Sits after the HTTP/1 decoder (Hummingbird's `additionalChannelHandlers`): it sees request
/// parts coming in and response parts going out, and passes both on unchanged.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let deadline: TimeAmount
    let connections: SlowConnections
    private var key: Int?
    private var timer: Scheduled<Void>?
    /// Whether the request being answered has arrived whole (the answer may start earlier:
    /// a refusal sent before the body has come).
    private var requestComplete = false

    init(deadline: TimeAmount, connections: SlowConnections) {
        self.deadline = deadline
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestComplete = false
        case .body:
            break
        case .end:
            requestComplete = true
            timer?.cancel()
            timer = nil
            if let key { connections.waiting(key, since: nil) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), requestComplete {
            // Answered: the next request has the deadline from now. (When the answer went out
            // before the request had arrived whole, the request's own deadline runs on.)
            requestComplete = false
            arm(context)
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard key == nil else { return }
        key = connections.opened(context.channel, at: .now())
        arm(context)
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
        if let key { connections.waiting(key, since: .now()) }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if let key { connections.closed(key) }
        key = nil
    }
}
