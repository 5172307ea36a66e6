import Hummingbird

/// Refuses what the endpoint never needs, before a handler runs: outside `/api/`, any method
/// but GET and HEAD (405) and any request with a body (413); under `/api/`, methods other than
/// GET, HEAD, POST and DELETE (405) and bodies over ``SilenceRequest/maximumBodyBytes`` (413;
/// a body sent in chunks is cut off at that size by the handler).
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var apiPrefix: String { "/api/" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isAPI = request.uri.path.hasPrefix(Self.apiPrefix)
        let allowed: [HTTPRequest.Method] = isAPI ? [.get, .head, .post, .delete] : [.get, .head]
        guard allowed.contains(request.method) else {
            return Response(status: .methodNotAllowed,
                            headers: [.allow: allowed.map(\.rawValue).joined(separator: ", "), .connection: "close"])
        }
        let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        let limit = isAPI && request.method == .post ? SilenceRequest.maximumBodyBytes : 0
        guard length <= limit, isAPI || request.headers[.transferEncoding] == nil else {
            return Response(status: .contentTooLarge, headers: [.connection: "close"])
        }
        return try await next(request, context)
    }
}
