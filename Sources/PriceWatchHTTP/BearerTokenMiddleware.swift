import Hummingbird
import PriceWatchCore

/// Requires `Authorization: Bearer TOKEN` on every request, compared in constant time (the
/// time taken does not depend on where a wrong token differs). The token never appears in a
/// response or a log line.
///
/// Under ``queryTokenPrefix`` (the relay routes, whose senders cannot set headers: TradingView)
/// the token may come as the query parameter `token` instead, compared the same way. A browser
/// logged in at `/login` is let through by its session cookie (``BrowserSessions``); `/login`
/// itself is open (it asks for the token).
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The paths where `?token=` is accepted.
    static var queryTokenPrefix: String { "/api/ingest/" }

    let token: [UInt8]
    let sessions: BrowserSessions?
    let now: @Sendable () -> Timestamp

    init(token: String, sessions: BrowserSessions? = nil, now: @escaping @Sendable () -> Timestamp = { Timestamp(milliseconds: 0) }) {
        self.token = Array(token.utf8)
        self.sessions = sessions
        self.now = now
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let given = request.headers[.authorization] {
            let prefix = "Bearer "
            guard given.count > prefix.count, given.lowercased().hasPrefix(prefix.lowercased()),
                  ConstantTime.equal(Array(given.utf8.dropFirst(prefix.utf8.count)), token) else {
                return Self.refusal
            }
            return try await next(request, context)
        }
        if let sessions {
            if request.uri.path == "/login" { return try await next(request, context) }
            if let cookie = request.headers[.cookie], let id = BrowserSessions.id(inCookieHeader: cookie), sessions.isValid(id, now: now()) {
                return try await next(request, context)
            }
        }
        guard request.uri.path.hasPrefix(Self.queryTokenPrefix),
              let given = request.uri.queryParameters["token"],
              ConstantTime.equal(Array(given.utf8), token) else {
            return Self.refusal
        }
        return try await next(request, context)
    }

    private static var refusal: Response {
        Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"pricewatch\""])
    }
}
