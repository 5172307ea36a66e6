import Hummingbird

/// Requires `Authorization: Bearer TOKEN` on every request, compared in constant time (the
/// time taken does not depend on where a wrong token differs). The token never appears in a
/// response or a log line.
///
/// Under ``queryTokenPrefix`` (the relay routes, whose senders cannot set headers: TradingView)
/// the token may come as the query parameter `token` instead, compared the same way.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The paths where `?token=` is accepted.
    static var queryTokenPrefix: String { "/api/ingest/" }

    let token: [UInt8]

    init(token: String) {
        self.token = Array(token.utf8)
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
