import Hummingbird

/// Refuses what the endpoint never needs, before a handler runs: outside `/api/`, any method
/// but GET and HEAD (405) and any request with a body (413); under `/api/`, methods other than
/// GET, HEAD, POST and DELETE (405) and bodies over ``SilenceRequest/maximumBodyBytes`` (413;
/// a body sent in chunks is cut off at that size by the handler). The pages' forms (`/login`,
/// `/silences`, `/silences/ID/expire`) also take POST, with a form body of at most
/// ``FormBody/maximumBytes``.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var apiPrefix: String { "/api/" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let isAPI = path.hasPrefix(Self.apiPrefix)
        let isForm = path == "/login" || path == "/silences" || (path.hasPrefix("/silences/") && path.hasSuffix("/expire"))
        let allowed: [HTTPRequest.Method] = isAPI ? [.get, .head, .post, .delete] : isForm ? [.get, .head, .post] : [.get, .head]
        guard allowed.contains(request.method) else {
            return Response(status: .methodNotAllowed,
                            headers: [.allow: allowed.map(\.rawValue).joined(separator: ", "), .connection: "close"])
        }
        let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        let limit = request.method != .post ? 0 : isAPI ? SilenceRequest.maximumBodyBytes : FormBody.maximumBytes
        guard length <= limit, isAPI || isForm || request.headers[.transferEncoding] == nil else {
            return Response(status: .contentTooLarge, headers: [.connection: "close"])
        }
        return try await next(request, context)
    }
}
