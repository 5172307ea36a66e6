import Hummingbird

/// Requires `Authorization: Bearer TOKEN` on every request, compared in constant time (the
/// time taken does not depend on where a wrong token differs). The token never appears in a
/// response or a log line.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]

    init(token: String) {
        self.token = Array(token.utf8)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let given = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard given.count > prefix.count, given.lowercased().hasPrefix(prefix.lowercased()),
              ConstantTime.equal(Array(given.utf8.dropFirst(prefix.utf8.count)), token) else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"pricewatch\""])
        }
        return try await next(request, context)
    }
}
