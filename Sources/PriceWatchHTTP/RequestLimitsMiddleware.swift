import Hummingbird

/// Refuses what a read-only endpoint never needs: any method but GET and HEAD (405) and any
/// request with a body (413), before a handler runs.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .connection: "close"])
        }
        let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        guard length == 0, request.headers[.transferEncoding] == nil else {
            return Response(status: .contentTooLarge, headers: [.connection: "close"])
        }
        return try await next(request, context)
    }
}
