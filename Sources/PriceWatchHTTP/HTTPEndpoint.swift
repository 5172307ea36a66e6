import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import struct PriceWatchCore.HTTPEndpointSettings
import enum PriceWatchCore.PercentEncoding
import struct PriceWatchCore.AlertQuery
import enum PriceWatchCore.HistoryRange
import struct PriceWatchCore.Timestamp
import ServiceLifecycle

/// The daemon's HTTP endpoint (Hummingbird): the dashboard at `/`, its live sections and
/// server-sent events, `/metrics` (Prometheus text format), `/healthz`, `/api/silences`
/// (``SilenceRoutes``) and `/api/ingest/tradingview` (``IngestRoutes``), the only routes that
/// change anything, always behind the token. Every other method is refused.
///
/// Bounded against slow or hostile clients: ``HTTPEndpointSettings/maximumConnections``
/// connections at once, and when a new one comes beyond them (up to ``evictionReserve`` more
/// are accepted) the one that has waited longest for its request to finish arriving is closed
/// (``SlowConnections``), so slow clients can never keep a health check out; a request must
/// arrive, and finish arriving, within ``requestDeadline`` however it trickles
/// (``RequestDeadlineHandler``), and within ``idleTimeout`` of nothing; no request body outside
/// `/api/` (4 KiB there), small headers, at most
/// ``LiveQuotes/maximumListeners`` event streams each ending after ``eventStreamLifetime``,
/// and at most one state read and one metrics refresh per second however many requests ask
/// (``SnapshotCache``). Requests are handled on a thread of their own at the lowest priority
/// (``LowPriorityExecutor``) and the sockets on an event loop thread at that priority too,
/// never on the pollers' or the dispatcher's threads.
public struct HTTPEndpoint: Service {
    public static let idleTimeout: TimeAmount = .seconds(15)
    /// How long a request may take to arrive whole, from the connection's start or the end of
    /// the previous answer.
    public static let requestDeadline: TimeAmount = .seconds(15)
    /// Connections accepted beyond the maximum, each closing the longest-waiting one.
    public static let evictionReserve = 8
    public static let eventStreamLifetime: Duration = .seconds(600)
    static let keepAliveEvery: Duration = .seconds(15)

    let settings: HTTPEndpointSettings
    let source: any DashboardSource
    let live: LiveQuotes
    let exporter: MetricsExporter
    let silences: (any SilenceAdministration)?
    let ingest: (any IngestOutbox)?
    /// A listening socket passed by the service manager (socket activation); nil: bind
    /// `settings`' address.
    let inheritedSocket: Int32?
    let logger: Logger
    let onListening: @Sendable (Int) async -> Void

    /// - Parameters:
    ///   - silences: where `/api/silences` reads and writes; nil: those routes are not served.
    ///   - ingest: where `/api/ingest/NAME` stores relayed messages; nil: not served.
    ///   - inheritedSocket: a listening socket from the service manager to serve on instead of
    ///     binding `settings`' address.
    ///   - onListening: called with the bound port once the endpoint listens (tests bind port 0).
    public init(settings: HTTPEndpointSettings, source: any DashboardSource, live: LiveQuotes, exporter: MetricsExporter,
                silences: (any SilenceAdministration)? = nil, ingest: (any IngestOutbox)? = nil, inheritedSocket: Int32? = nil, logger: Logger,
                onListening: @escaping @Sendable (Int) async -> Void = { _ in }) {
        self.settings = settings
        self.source = source
        self.live = live
        self.exporter = exporter
        self.silences = silences
        self.ingest = ingest
        self.inheritedSocket = inheritedSocket
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let executor = LowPriorityExecutor(name: "pricewatch-http")
        // The sockets too: one event loop of its own, at the lowest priority.
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        try await eventLoops.next().submit { LowPriorityExecutor.lowerThisThreadsPriority() }.get()
        let cache = SnapshotCache(source: source, executor: executor)
        // HEAD wherever GET is answered: the GET handler's status and headers, without the body.
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLimitsMiddleware())
        // Browsers log in with the token for the silences' forms (`/login`): only with silences.
        let sessions = settings.token != nil && silences != nil ? BrowserSessions() : nil
        if let token = settings.token {
            let silences = self.silences
            router.add(middleware: BearerTokenMiddleware(token: token.value, sessions: sessions,
                                                         now: { silences?.now() ?? Timestamp(milliseconds: 0) }))
            if let sessions, let silences {
                LoginRoutes.add(to: router, token: token.value, sessions: sessions, now: { silences.now() })
            }
        }
        let live = self.live, exporter = self.exporter, source = self.source
        router.get("/") { request, _ -> Response in
            Self.html(await cache.rendered(.page, live: live), for: request)
        }
        router.get("/sections") { request, _ -> Response in
            Self.html(await cache.rendered(.sections, live: live), for: request)
        }
        router.get("/symbol/:symbol") { request, context -> Response in
            let symbol = PercentEncoding.decoded(Substring(context.parameters.get("symbol") ?? ""))
            let range: HistoryRange
            switch SymbolPage.range(query: request.uri.queryParameters.get("range").map { String($0) }) {
            case .success(let chosen): range = chosen
            case .failure(let problem): return Self.html(SymbolPage.badQuery(symbol, problem: problem.description), status: .badRequest)
            }
            let snapshot = await cache.snapshot()
            guard snapshot.symbols.contains(where: { $0.symbol == symbol }) else {
                return Self.html(SymbolPage.notWatched(symbol), status: .notFound)
            }
            let history = range == .oneDay ? nil : await cache.history(of: symbol, range: range)
            // The 52-week range: the 1Y range's history (the read its chart shares).
            let year = await cache.history(of: symbol, range: .oneYear)
            let holdings = await cache.holdings(of: symbol)
            let events = await cache.events(of: symbol)
            guard let page = SymbolPage.page(symbol, snapshot: snapshot, live: live, range: range, history: history,
                                             holdings: holdings, year: year, events: events) else {
                return Self.html(SymbolPage.notWatched(symbol), status: .notFound)
            }
            return Self.html(page)
        }
        router.get("/alerts") { request, _ -> Response in
            let parameters = request.uri.queryParameters
            switch AlertsPage.query(symbol: parameters.get("symbol"), rule: parameters.get("rule"), status: parameters.get("status")) {
            case .success(let query):
                let log = await cache.alertLog(matching: query, limit: AlertsPage.limit)
                return Self.html(AlertsPage.page(log, query: query))
            case .failure(let problem):
                return Self.html(AlertsPage.page(DashboardAlertLog(), query: AlertQuery(), problem: problem.description),
                                 status: .badRequest)
            }
        }
        for path in ["/portfolio", "/portfolio/:name"] {
            router.get(RouterPath(stringLiteral: path)) { _, context -> Response in
                let name = context.parameters.get("name").map { PercentEncoding.decoded(Substring($0)) }
                let page = PortfolioPage.page(await cache.portfolios(named: name), name: name)
                return Self.html(page.html, status: HTTPResponse.Status(code: page.status))
            }
        }
        for path in ["/paper", "/paper/:account"] {
            router.get(RouterPath(stringLiteral: path)) { _, context -> Response in
                let account = context.parameters.get("account").map { PercentEncoding.decoded(Substring($0)) }
                let page = PaperPage.page(await cache.paper(account: account), account: account)
                return Self.html(page.html, status: HTTPResponse.Status(code: page.status))
            }
        }
        router.get("/markets") { _, _ -> Response in
            Self.html(MarketsPage.page(await source.marketOverview(), snapshot: await cache.snapshot(), live: live))
        }
        router.get("/events") { _, _ -> Response in
            guard let stream = live.listen() else {
                return Self.text("too many event streams; try again later\n", status: .serviceUnavailable)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                             body: ResponseBody { writer in
                                 try await Self.stream(stream, to: &writer)
                             })
        }
        // Not the GET handler's: that would open an event stream nobody reads.
        router.head("/events") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"])
        }
        router.get("/metrics") { _, _ -> Response in
            await cache.refreshScrapedMetrics(exporter)
            var buffer = ByteBuffer()
            buffer.writeBytes(exporter.render())
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: buffer))
        }
        router.get("/healthz") { _, _ -> Response in
            let problems = await source.healthProblems()
            if problems.isEmpty { return Self.text("ok\n") }
            return Self.text(problems.joined(separator: "\n") + "\n", status: .serviceUnavailable)
        }
        if let silences {
            let editable = settings.token != nil
            router.get("/silences") { request, _ -> Response in
                let now = silences.now()
                let notice = request.uri.queryParameters.get("notice")
                do {
                    return Self.html(SilencesPage.page(try await silences.active(at: now), now: now, editable: editable, notice: notice))
                } catch {
                    return Self.html(SilencesPage.page([], problem: "could not read the silences: \(error)", now: now))
                }
            }
            SilenceRoutes.add(to: router, silences: silences, tokenConfigured: settings.token != nil)
            if editable { SilenceFormRoutes.add(to: router, silences: silences) }
        }
        if let ingest {
            IngestRoutes.add(to: router, outbox: ingest, tokenConfigured: settings.token != nil)
        }
        let onListening = self.onListening
        let connections = SlowConnections(limit: settings.maximumConnections)
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadlineHandler(deadline: Self.requestDeadline,
                                                                                                  connections: connections)],
                                               idleTimeout: Self.idleTimeout,
                                               httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 * 1024,
                                                                               maxHeaderListSize: 32 * 1024,
                                                                               maxHeaderFieldCount: 64))
        // Open event streams would hold the server's graceful shutdown for their lifetime: they
        // end as soon as shutdown begins (browsers reconnect to the next daemon by themselves).
        defer {
            live.finishListeners()
            eventLoops.shutdownGracefully { _ in }
        }
        if let descriptor = inheritedSocket {
            let server = InheritedSocketServer(descriptor: descriptor, maximumConnections: settings.maximumConnections + Self.evictionReserve,
                                               router: router,
                                               configuration: http1, eventLoops: eventLoops, logger: logger)
            logger.notice("HTTP endpoint listening on the socket passed by the service manager (descriptor \(descriptor))\(settings.token == nil ? "" : " (bearer token required)")")
            try await withTaskExecutorPreference(executor) {
                try await withGracefulShutdownHandler {
                    try await server.run(onListening: onListening)
                } onGracefulShutdown: {
                    live.finishListeners()
                }
            }
            return
        }
        let app = Application(
            router: router,
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: nil, backlog: 256,
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maximumConnections + Self.evictionReserve)),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            eventLoopGroupProvider: .shared(eventLoops),
            logger: logger)
        logger.notice("HTTP endpoint listening on \(settings.host):\(settings.port)\(settings.token == nil ? "" : " (bearer token required)")")
        // Every request is handled in a child task of this one, so on the low-priority thread.
        try await withTaskExecutorPreference(executor) {
            try await withGracefulShutdownHandler {
                try await app.runService()
            } onGracefulShutdown: {
                live.finishListeners()
            }
        }
    }

    /// Writes `stream` as server-sent events, with a comment line every ``keepAliveEvery`` of
    /// quiet, until it ends, the lifetime is over or the client goes.
    static func stream(_ stream: AsyncStream<String>, to writer: inout any ResponseBodyWriter) async throws {
        let deadline = ContinuousClock.now.advanced(by: eventStreamLifetime)
        try await writer.write(ByteBuffer(string: "retry: 5000\n: pricewatch live updates\n\n"))
        // Events and keep-alive ticks merged into one stream, by child tasks (which run where
        // the request does, and end when the client goes or shutdown ends the events).
        let (merged, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(LiveQuotes.eventsPerListener))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in stream { continuation.yield(event) }
                continuation.finish()
            }
            group.addTask {
                // Cancellation (the client went, shutdown) ends the sleep and the loop.
                while ContinuousClock.now < deadline {
                    do { try await Task.sleep(for: keepAliveEvery) } catch { break }
                    continuation.yield(": keep-alive\n\n")
                }
                continuation.finish()
            }
            defer { group.cancelAll() }
            for await chunk in merged {
                try await writer.write(ByteBuffer(string: chunk))
            }
        }
        try await writer.finish(nil)
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: htmlHeaders, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `page` in gzip when the request accepts it, else as rendered; caches are told the
    /// answer depends on `Accept-Encoding` either way.
    static func html(_ page: RenderedPage, for request: Request) -> Response {
        let (bytes, encoding) = page.body(for: AcceptEncoding(request.headers[values: .acceptEncoding]))
        var headers = htmlHeaders
        headers[.vary] = "Accept-Encoding"
        if let encoding { headers[.contentEncoding] = encoding }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    static let htmlHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
        .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
    ]

    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
