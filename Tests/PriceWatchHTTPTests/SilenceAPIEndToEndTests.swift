import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

/// `/api/silences` of the running daemon on loopback: a silence posted with the token holds
/// back its alerts at once (recorded as silenced), is listed by the command line and over
/// HTTP, and is expired by `DELETE`; bad bodies, a missing token, other methods and large
/// bodies are refused with messages that say what is wrong.
@Suite(.serialized) struct SilenceAPIEndToEndTests {
    struct Answer {
        var status: Int
        var text: String
    }

    /// The replayed daemon (crosses 15: every row after the first crosses, one a poll, every
    /// second) with the endpoint on a free port and `token` as its bearer token.
    static func daemonWithToken(_ token: String) throws -> (directory: TemporaryDirectory, port: Int, daemon: RunningDaemon) {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: (0..<1200).map { $0 % 2 == 0 ? "10" : "20" })
        let port = try DashboardDaemon.freePort()
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + "\n[http]\nlisten = \"127.0.0.1:\(port)\"\ntoken = { env = \"API_TOKEN\" }\n")
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path,
                                       environment: ["API_TOKEN": token])
        return (directory, port, daemon)
    }

    @Test func aPostedSilenceHoldsBackAlertsAndIsListedAndExpired() async throws {
        let token = "api-token-\(UUID().uuidString)"
        let (directory, port, daemon) = try Self.daemonWithToken(token)
        let transport = CurlHTTPTransport()
        func send(_ path: String, _ method: HTTPRequest.Method = .get, body: String = "", authorized: Bool = true) async -> Answer? {
            let headers = authorized ? [HTTPHeader("Authorization", "Bearer \(token)"), HTTPHeader("Content-Type", "application/json")] : []
            let request = HTTPRequest(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: Array(body.utf8),
                                      timeout: .seconds(20))
            guard let response = try? await transport.send(request) else { return nil }
            return Answer(status: response.status, text: String(decoding: response.body, as: UTF8.self))
        }
        try await waitUntil("the endpoint to answer; standard error: \(daemon.errorLines.suffix(5))") {
            if !daemon.isRunning { throw DashboardDaemon.DaemonExited(lines: daemon.errorLines.suffix(10)) }
            return await send("/healthz") != nil
        }

        let anonymous = try #require(await send("/api/silences", .post, body: #"{"rule":"x-crosses-15","for":"1h"}"#, authorized: false))
        #expect(anonymous.status == 401)

        let created = try #require(await send("/api/silences", .post, body: #"{"rule":"x-crosses-15","for":"1h","comment":"deploy"}"#))
        #expect(created.status == 201, "\(created.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.text.utf8)) as? [String: Any], "\(created.text)")
        let id = try #require(object["id"] as? String, "\(created.text)")
        #expect(object["rule"] as? String == "x-crosses-15")
        #expect(object["active"] as? Bool == true)
        #expect(object["comment"] as? String == "deploy")

        // Effective at once, with no reload: alerts are recorded as silenced.
        try await waitUntil("two silenced alerts in the alert log") {
            let silenced = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--status", "silenced", "--format", "json"],
                                                       in: directory.path)
            return silenced.outputLines.filter { $0.contains("\"status\":\"silenced\"") }.count >= 2
        }
        let listed = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(listed.status == 0 && listed.standardOutput.contains("\"id\":\"\(id)\""), "\(listed.standardOutput)")
        let overHTTP = try #require(await send("/api/silences"))
        #expect(overHTTP.status == 200 && overHTTP.text.contains("\"id\":\"\(id)\""), "\(overHTTP.text)")
        // The page lists it too (issue 26).
        let page = try #require(await send("/silences"))
        #expect(page.status == 200 && page.text.contains("<td class=\"id\">\(id)</td><td>rule x-crosses-15</td>"), "\(page.text)")
        #expect(page.text.contains("<td>deploy</td>"))

        let badBodies: [(String, String)] = [
            (#"{"rule":5,"for":"1h"}"#, "rule: expected a string, found a number"),
            (#"{"rule":"x-crosses-15","for":"soon"}"#, "for: "),
            (#"{"rule":"x-crosses-15"}"#, #"expected "for""#),
            (#"{"symbol":"X","rule":"x-crosses-15","for":"1h"}"#, "found both"),
            (#"{"rule":"x-crosses-15","for":"1h","colour":"red"}"#, "unknown member \"colour\""),
            (#"{"rule":"x-crosses-15","until":"2000-01-01T00:00:00Z"}"#, "until: "),
            ("not json", "not JSON"),
            ("[1]", "found an array"),
        ]
        for (body, message) in badBodies {
            let answer = try #require(await send("/api/silences", .post, body: body))
            #expect(answer.status == 400, "\(body): \(answer.text)")
            let error = (try? JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])?["error"] as? String ?? ""
            #expect(error.contains(message), "\(body) answered \(answer.text), expected it to say \(message)")
        }
        let put = try #require(await send("/api/silences", .put, body: "{}"))
        #expect(put.status == 405)
        let longComment = String(repeating: "a", count: 5000)
        let large = try #require(await send("/api/silences", .post, body: "{\"rule\":\"x\",\"for\":\"1h\",\"comment\":\"\(longComment)\"}"))
        #expect(large.status == 413)

        let expired = try #require(await send("/api/silences/\(id)", .delete))
        #expect(expired.status == 200 && expired.text.contains("\"active\":false"), "\(expired.text)")
        let unknown = try #require(await send("/api/silences/s-000000000000", .delete))
        #expect(unknown.status == 404, "\(unknown.text)")
        let none = try #require(await send("/api/silences"))
        #expect(none.text == "{\"silences\":[]}\n", "\(none.text)")

        #expect(try await daemon.stop() == 0)
        #expect(!(daemon.errorLines + daemon.outputLines).contains { $0.contains(token) }, "the token never appears in output")
    }

    /// Issue 29, item 5: a NUL in an id was answered 201 and stored cut at the NUL; an id that
    /// matched no rule was accepted without a word. Now the first is a 400 naming the member,
    /// the second a 201 whose answer says that the silence matches nothing today.
    @Test func controlCharactersAreRefusedAndASilenceOfNothingIsSaidSo() async throws {
        let token = "api-token-\(UUID().uuidString)"
        let (directory, port, daemon) = try Self.daemonWithToken(token)
        let transport = CurlHTTPTransport()
        func post(_ body: String) async -> Answer? {
            let request = HTTPRequest(method: .post, url: "http://127.0.0.1:\(port)/api/silences",
                                      headers: [HTTPHeader("Authorization", "Bearer \(token)"), HTTPHeader("Content-Type", "application/json")],
                                      body: Array(body.utf8), timeout: .seconds(20))
            guard let response = try? await transport.send(request) else { return nil }
            return Answer(status: response.status, text: String(decoding: response.body, as: UTF8.self))
        }
        try await waitUntil("the endpoint to answer; standard error: \(daemon.errorLines.suffix(5))") {
            if !daemon.isRunning { throw DashboardDaemon.DaemonExited(lines: daemon.errorLines.suffix(10)) }
            let request = HTTPRequest(url: "http://127.0.0.1:\(port)/healthz", timeout: .seconds(20))
            return (try? await transport.send(request)) != nil
        }

        let nul = try #require(await post(#"{"rule":"x-crosses-15\u0000evil","for":"1h"}"#))
        #expect(nul.status == 400, "\(nul.text)")
        #expect(nul.text.contains("rule: "), "\(nul.text)")
        let twice = try #require(await post(#"{"rule":"x-crosses-15","rule":"other","for":"1h"}"#))
        #expect(twice.status == 400, "\(twice.text)")

        let known = try #require(await post(#"{"rule":"x-crosses-15","for":"1h"}"#))
        #expect(known.status == 201, "\(known.text)")
        #expect(!known.text.contains("warning"), "\(known.text)")
        for body in [#"{"rule":"x-crosses-16","for":"1h"}"#, #"{"symbol":"NOPE","for":"1h"}"#] {
            let unknown = try #require(await post(body))
            #expect(unknown.status == 201, "\(unknown.text)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(unknown.text.utf8)) as? [String: Any], "\(unknown.text)")
            let warning = object["warning"] as? String ?? ""
            #expect(warning.contains("matches nothing"), "\(unknown.text)")
        }
        let listed = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(!listed.standardOutput.contains("evil") && listed.outputLines.count == 3, "\(listed.standardOutput)")
        #expect(try await daemon.stop() == 0)
    }

    @Test func withoutATokenConfiguredTheSilenceRoutesAreForbidden() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        let post = try #require(await demo.request("/api/silences", method: .post, body: Array(#"{"rule":"aapl-above-225.5","for":"1h"}"#.utf8)))
        #expect(post.status == 403)
        #expect(String(decoding: post.body, as: UTF8.self).contains("needs a bearer token"))
        let list = try #require(await demo.request("/api/silences"))
        #expect(list.status == 403)
        // The read-only pages still follow the loopback rule.
        #expect(await demo.request("/healthz")?.status == 200)
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26: with the token, a browser logs in at `/login` (a session cookie, never the
    /// token) and makes and ends silences from the page's forms; without the cookie, or with a
    /// forged one, nothing but `/login` is open.
    @Test func aBrowserLogsInAndMakesAndEndsASilenceFromThePage() async throws {
        let token = "page-token-\(UUID().uuidString)"
        let (directory, port, daemon) = try Self.daemonWithToken(token)
        let transport = CurlHTTPTransport()
        func send(_ path: String, _ method: HTTPRequest.Method = .get, form: String? = nil, cookie: String? = nil) async -> HTTPResponse? {
            var headers: [HTTPHeader] = []
            if let cookie { headers.append(HTTPHeader("Cookie", cookie)) }
            if form != nil { headers.append(HTTPHeader("Content-Type", "application/x-www-form-urlencoded")) }
            let request = HTTPRequest(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers,
                                      body: Array((form ?? "").utf8), timeout: .seconds(20))
            return try? await transport.send(request)
        }
        func text(_ response: HTTPResponse?) -> String { response.map { String(decoding: $0.body, as: UTF8.self) } ?? "" }
        try await waitUntil("the login page to answer; standard error: \(daemon.errorLines.suffix(5))") {
            if !daemon.isRunning { throw DashboardDaemon.DaemonExited(lines: daemon.errorLines.suffix(10)) }
            return await send("/login")?.status == 200
        }
        #expect(await send("/silences")?.status == 401, "no cookie, no page")
        #expect(text(await send("/login")).contains("<input id=\"token\" name=\"token\" type=\"password\""))
        let wrong = try #require(await send("/login", .post, form: "token=nope"))
        #expect(wrong.status == 401 && text(wrong).contains("wrong token"))
        #expect(wrong.header("Set-Cookie") == nil)

        let login = try #require(await send("/login", .post, form: "token=" + token))
        #expect(login.status == 303 && login.header("Location") == "/silences")
        let setCookie = try #require(login.header("Set-Cookie"))
        #expect(setCookie.hasPrefix("pricewatch_session=") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
        #expect(!setCookie.contains(token), "the cookie holds a session id, never the token")
        let cookie = String(setCookie.prefix { $0 != ";" })
        #expect(await send("/silences", cookie: "pricewatch_session=" + String(repeating: "0", count: 64))?.status == 401, "a forged session")

        let page = try #require(await send("/silences", cookie: cookie))
        #expect(page.status == 200 && text(page).contains("<form method=\"post\" action=\"/silences\" class=\"new-silence\">"))
        let made = try #require(await send("/silences", .post, form: "target=rule&name=x-crosses-15&for=1h&comment=deploy+day", cookie: cookie))
        #expect(made.status == 303)
        let location = try #require(made.header("Location"))
        let back = text(await send(location, cookie: cookie))
        let id = try #require(back.firstMatch(of: /made silence ([a-z0-9-]+) \(rule x-crosses-15\)/).map { String($0.1) }, "\(back)")
        #expect(back.contains("<td>deploy day</td>"))
        #expect(back.contains("action=\"/silences/\(id)/expire\""))
        let listed = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(listed.standardOutput.contains("\"id\":\"\(id)\""), "the command line sees it: \(listed.standardOutput)")

        let refused = try #require(await send("/silences", .post, form: "target=rule&name=x-crosses-15&for=soon", cookie: cookie))
        let refusedPage = text(await send(refused.header("Location") ?? "/silences", cookie: cookie))
        #expect(refusedPage.contains("not made: for: "), "\(refusedPage)")
        #expect(await send("/silences", .post, form: "target=rule&name=x&for=1h")?.status == 401, "a form without the cookie")

        let ended = try #require(await send("/silences/\(id)/expire", .post, cookie: cookie))
        #expect(ended.status == 303)
        #expect(text(await send(ended.header("Location") ?? "/silences", cookie: cookie)).contains("ended silence \(id)"))
        let after = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(!after.standardOutput.contains("\"id\":\"\(id)\""), "ended: \(after.standardOutput)")
        #expect(try await daemon.stop() == 0)
    }
}
