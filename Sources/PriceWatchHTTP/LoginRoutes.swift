import Hummingbird
import PriceWatchCore

/// `/login`: how a browser gets past the endpoint's token (`[http] token`), which it cannot
/// send as a header. `GET` is a form asking for the token; `POST` (form-encoded `token`)
/// compares it in constant time and, when it is right, sets the `pricewatch_session` cookie
/// (a random session id, ``BrowserSessions``; `HttpOnly`, `SameSite=Strict`, for 12 hours)
/// and sends the browser to `/silences`. A wrong token answers `401` with the form again. The
/// token never appears in an answer, a cookie or a log line.
enum LoginRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, token: String, sessions: BrowserSessions,
                                             now: @escaping @Sendable () -> Timestamp) {
        router.get("/login") { _, _ -> Response in
            HTTPEndpoint.html(page(problem: nil))
        }
        router.post("/login") { request, _ -> Response in
            let bytes: ByteBuffer
            do {
                bytes = try await request.body.collect(upTo: FormBody.maximumBytes)
            } catch {
                return HTTPEndpoint.html(page(problem: "the form is too large"), status: .contentTooLarge)
            }
            guard let form = try? FormBody(Array(buffer: bytes)), let given = form["token"],
                  ConstantTime.equal(Array(given.utf8), Array(token.utf8)) else {
                return HTTPEndpoint.html(page(problem: "wrong token"), status: .unauthorized)
            }
            let id = sessions.create(now: now())
            return Response(status: .seeOther, headers: [
                .location: "/silences",
                .setCookie: "\(BrowserSessions.cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(BrowserSessions.lifetimeSeconds)",
                .cacheControl: "no-store",
            ])
        }
    }

    static func page(problem: String?) -> String {
        var body = "<section id=\"login\"><h2>Log in</h2>\n"
        if let problem { body += "<p class=\"problem\">\(HTMLText.escaped(problem))</p>\n" }
        body += """
            <form method="post" action="/login"><label for="token">The endpoint's token ([http] token)</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required>
            <button type="submit">Log in</button></form>
            <p class="muted">A session lasts 12 hours, or until the daemon restarts.</p></section>

            """
        return PageShell.html(title: "Log in · pricewatch", heading: "Log in", home: "./", main: body)
    }
}
