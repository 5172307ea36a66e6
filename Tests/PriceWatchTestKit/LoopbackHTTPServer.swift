import Synchronization

/// A real HTTP/1.1 server on `127.0.0.1`, port 0, for tests that drive the real libcurl
/// transport: scripted answers, every request recorded, and the faults real services show.
///
/// It runs on its own threads (an accept thread and one thread per connection, POSIX sockets),
/// so handlers are plain synchronous closures and may block (``LoopbackGate``). It speaks
/// keep-alive, `Expect: 100-continue`, and `Content-Length` or chunked request bodies.
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.route("GET", "/v7/finance/quote") { request in
///     guard request.queryValue("symbols") == "AAPL" else { return .status(400) }
///     return .json(#"{"quoteResponse":{"result":[]}}"#)
/// }
/// server.route("GET", "/limited", sequence: [
///     .status(429, headers: [HTTPHeader("Retry-After", "2")]),   // first request
///     .json("{}"),                                                // second and later
/// ])
/// server.route("GET", "/cut") { _ in .truncated("0123456789", afterBytes: 3) }
/// server.route("GET", "/gone") { _ in .closeWithoutAnswer }
/// server.route("GET", "/never") { _ in .hang }                    // answers when stopped
/// let gate = LoopbackGate()
/// server.route("GET", "/slow") { _ in .text("late").after(gate) } // answers when gate.open()
///
/// let response = try await transport.send(HTTPRequest(url: server.baseURL + "/v7/finance/quote?symbols=AAPL"))
/// #expect(server.requests.map(\.path) == ["/v7/finance/quote"])
/// ```
///
/// Unrouted requests go to the handler given to `init(handler:)`, or get a 404. Connection
/// refused: ``stop()`` a server made by ``onReusablePort(handler:)`` and use its ``baseURL``
/// (the port is closed when `stop` returns); recovery: start a new server with
/// `init(port:handler:)` on that port.
/// Waiting is by event with a deadline: ``waitForRequests(count:timeout:)`` returns once that
/// many requests arrived, and fails the test (throws) if they do not arrive in time or the
/// server stops first.
public final class LoopbackHTTPServer: Sendable {
    public typealias Handler = @Sendable (RecordedRequest) -> LoopbackResponse

    private let core: LoopbackServerCore

    /// Starts listening on `127.0.0.1` on a free port; `handler` answers unrouted requests.
    public init(handler: Handler? = nil) throws {
        core = try LoopbackServerCore(fallback: handler)
    }

    /// Starts listening on `127.0.0.1:port` (with `SO_REUSEADDR`), so a test can ``stop()`` a
    /// server and start a new one on the same port: the URL a sink was configured with goes from
    /// refusing connections to answering them. Throws if the port is taken.
    public init(port: UInt16, handler: Handler? = nil) throws {
        core = try LoopbackServerCore(port: port, fallback: handler)
    }

    /// Starts listening on a free port below the kernel's ephemeral range (32768 and up), for
    /// a test that stops it and listens on its port again later: a port from the ephemeral
    /// range, once given back, can be handed to any other socket of the busy test process
    /// meanwhile (a client's local port), this one cannot.
    public static func onReusablePort(handler: Handler? = nil) throws -> LoopbackHTTPServer {
        var lastError: (any Error)?
        for _ in 0..<20 {
            do {
                return try LoopbackHTTPServer(port: UInt16.random(in: 20_000...32_000), handler: handler)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? LoopbackServerError("bind below the ephemeral range", 0)
    }

    deinit { core.stop() }

    /// The port the server listens on.
    public var port: UInt16 { core.port }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(core.port)" }

    /// Answers `method` (`"GET"`, `"POST"`, ...) on exactly `path` (no query) with `handler`,
    /// replacing an earlier route for the same pair.
    public func route(_ method: String, _ path: String, _ handler: @escaping Handler) {
        core.route(method, path, handler)
    }

    /// Answers `method` on `path` with `sequence` in order, repeating the last one forever.
    public func route(_ method: String, _ path: String, sequence: [LoopbackResponse]) {
        let next = Mutex(0)
        core.route(method, path) { _ in
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            guard let last = sequence.last else { return .status(404) }
            return index < sequence.count ? sequence[index] : last
        }
    }

    /// Replaces the handler of unrouted requests.
    public func setFallback(_ handler: @escaping Handler) {
        core.setFallback(handler)
    }

    /// Every request received so far, in arrival order (recorded before the handler runs).
    public var requests: [RecordedRequest] { core.requests }

    /// The requests received so far on `path`.
    public func requests(path: String) -> [RecordedRequest] { core.requests.filter { $0.path == path } }

    /// Waits until at least `count` requests have arrived and returns all of them. Throws
    /// ``WaitTimedOut`` when they have not arrived within `timeout`, and ``WaitAbandoned`` at
    /// once when the server is stopped before they arrived.
    @discardableResult
    public func waitForRequests(count: Int, timeout: Duration = defaultWaitTimeout) async throws -> [RecordedRequest] {
        let what = { [core] in "\(count) request(s) at 127.0.0.1:\(core.port) (\(core.requests.count) arrived: \(core.requests.map(\.path)))" }
        return try await waitFor(what(), timeout: timeout) { [core] in
            let (requests, stopped) = core.snapshot
            if requests.count >= count { return requests }
            if stopped { throw WaitAbandoned(what: what(), reason: "the server was stopped") }
            return nil
        }
    }

    /// Stops accepting (connections to ``port`` are refused once this returns), closes every
    /// connection and releases held (`.hang`, gated) answers; a test waiting for requests fails.
    /// Idempotent.
    public func stop() {
        core.stop()
    }
}
