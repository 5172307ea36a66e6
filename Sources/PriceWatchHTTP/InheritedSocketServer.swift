import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Serves the endpoint's router on a listening socket the service manager passed in (systemd
/// socket activation, `pricewatch-http.socket`), which Hummingbird's `Application` cannot
/// adopt: it only binds addresses itself. Everything but the accept loop is Hummingbird's: its
/// HTTP/1 channel (parser, header limits, idle timeout) and the router with its middleware;
/// this type only wraps the inherited descriptor in a NIO server channel and hands each
/// connection to that channel, at most `maximumConnections` at once (more wait in the
/// socket's backlog, as with `Application`).
struct InheritedSocketServer {
    let descriptor: Int32
    let maximumConnections: Int
    let channel: HTTP1Channel
    let eventLoops: any EventLoopGroup
    let logger: Logger

    /// - Parameter configuration: the HTTP/1 settings `Application` would use.
    init(descriptor: Int32, maximumConnections: Int, router: Router<BasicRequestContext>, configuration: HTTP1Channel.Configuration,
         eventLoops: any EventLoopGroup, logger: Logger) {
        self.descriptor = descriptor
        self.maximumConnections = max(maximumConnections, 1)
        self.eventLoops = eventLoops
        self.logger = logger
        let responder = router.buildResponder()
        channel = HTTP1Channel(responder: { request, writer, channel in
            let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            let response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as any HTTPResponseError {
                response = (try? error.response(from: request, context: context)) ?? Response(status: error.status)
            } catch {
                response = Response(status: .internalServerError)
            }
            try await writer.write(response: response.head, body: response.body)
        }, configuration: configuration)
    }

    /// Serves until graceful shutdown, then lets the connections in progress finish.
    func run(onListening: @Sendable (Int) async -> Void) async throws {
        let channel = self.channel, logger = self.logger
        let server = try await ServerBootstrap(group: eventLoops)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .bind(NIOBSDSocket.Handle(descriptor), cleanupExistingSocketFile: false) { child in
                channel.setup(channel: child, logger: logger)
            }
        await onListening(server.channel.localAddress?.port ?? 0)
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var open = 0
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        if open >= maximumConnections {
                            try await group.next()
                            open -= 1
                        }
                        group.addTask { await channel.handle(value: connection, logger: logger) }
                        open += 1
                    }
                }
                try await group.waitForAll()
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
    }
}
