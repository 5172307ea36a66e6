import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

/// `POST /api/ingest/tradingview` of the running daemon on loopback: TradingView's webhook
/// bodies (JSON and text) stored in the outbox and relayed to a webhook sink (a loopback
/// server); a wrong or missing token, a large body and a bad body are refused and store
/// nothing; a client's retry is one message; the token reaches no log line and not
/// `/metrics`; and a message answered `200` survives a SIGKILL right after the answer.
@Suite(.serialized) struct IngestRelayEndToEndTests {
    struct Answer {
        var status: Int
        var text: String
    }

    /// A daemon polling a replay file, with the endpoint, its token, a webhook sink at
    /// `hookURL` and `[ingest.tradingview]` notifying it.
    static func writeDaemon(in directory: TemporaryDirectory, port: Int, hookURL: String) throws {
        try ReplayDaemonFiles.write(in: directory, prices: (0..<120).map { $0 % 2 == 0 ? "10" : "11" })
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + """

            [sinks.hook]
            type = "webhook"
            url = "\(hookURL)"
            [http]
            listen = "127.0.0.1:\(port)"
            token = { env = "API_TOKEN" }
            [ingest.tradingview]
            notify = ["hook"]
            title = "TV"

            """)
    }

    static func send(port: Int, path: String, token: String?, body: String, contentType: String = "text/plain",
                     headers extra: [HTTPHeader] = [], method: HTTPRequest.Method = .post) async -> Answer? {
        var headers = [HTTPHeader("Content-Type", contentType)] + extra
        if let token { headers.append(HTTPHeader("Authorization", "Bearer \(token)")) }
        let request = HTTPRequest(method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: Array(body.utf8),
                                  timeout: .seconds(20))
        guard let response = try? await CurlHTTPTransport().send(request) else { return nil }
        return Answer(status: response.status, text: String(decoding: response.body, as: UTF8.self))
    }

    static func waitForEndpoint(_ daemon: RunningDaemon, port: Int) async throws {
        try await waitUntil("the endpoint to answer; standard error: \(daemon.errorLines.suffix(5))") {
            if !daemon.isRunning { throw DashboardDaemon.DaemonExited(lines: daemon.errorLines.suffix(10)) }
            return await send(port: port, path: "/healthz", token: nil, body: "", method: .get) != nil
        }
    }

    static func object(_ bytes: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]) ?? [:]
    }

    /// With no `token` in `[http]`, anyone on the host could have the daemon send messages:
    /// the relay answers 403 saying what to configure, and the daemon goes on.
    @Test func withoutATokenConfiguredTheRelayIsForbidden() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        for body in ["BTC crossed 100k", #"{"text":"BTC crossed 100k"}"#] {
            let post = try #require(await demo.request("/api/ingest/tradingview", method: .post, body: Array(body.utf8)))
            let text = String(decoding: post.body, as: UTF8.self)
            #expect(post.status == 403, "\(text)")
            #expect(text.contains("needs a bearer token: set token in [http]"), "\(text)")
        }
        #expect(await demo.request("/healthz")?.status == 200)
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    @Test func jsonAndTextBodiesAreRelayedAndBadRequestsStoreNothing() async throws {
        let token = "relay-token-\(UUID().uuidString)"
        let receiver = try LoopbackHTTPServer()
        defer { receiver.stop() }
        receiver.route("POST", "/hook") { _ in .status(204) }
        let directory = try TemporaryDirectory()
        let port = try DashboardDaemon.freePort()
        try Self.writeDaemon(in: directory, port: port, hookURL: receiver.baseURL + "/hook")
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-level", "debug", "--log-target", "stderr"],
                                       directory: directory.path, environment: ["API_TOKEN": token])
        try await Self.waitForEndpoint(daemon, port: port)
        let path = "/api/ingest/tradingview"

        // Refused, and nothing stored: no token, a wrong one (header and query), too large,
        // not UTF-8, empty, declared JSON that is not.
        let missing = try #require(await Self.send(port: port, path: path, token: nil, body: "refused-1"))
        #expect(missing.status == 401)
        let wrong = try #require(await Self.send(port: port, path: path, token: "x" + token, body: "refused-2"))
        #expect(wrong.status == 401)
        let wrongQuery = try #require(await Self.send(port: port, path: path + "?token=nope", token: nil, body: "refused-3"))
        #expect(wrongQuery.status == 401)
        let large = try #require(await Self.send(port: port, path: path, token: token, body: String(repeating: "a", count: 5000)))
        #expect(large.status == 413, "\(large.text)")
        let empty = try #require(await Self.send(port: port, path: path, token: token, body: "  "))
        #expect(empty.status == 400 && empty.text.contains("empty"), "\(empty.text)")
        let notJSON = try #require(await Self.send(port: port, path: path, token: token, body: "{oops", contentType: "application/json"))
        #expect(notJSON.status == 400 && notJSON.text.contains("not JSON"), "\(notJSON.text)")
        let otherRoute = try #require(await Self.send(port: port, path: "/api/ingest/elsewhere", token: token, body: "x"))
        #expect(otherRoute.status == 404)

        // JSON with the token as a query parameter (TradingView cannot set headers).
        let json = #"{"ticker":"AAPL","close":"189.5","note":"crossing"}"#
        let escapedToken = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        let first = try #require(await Self.send(port: port, path: path + "?token=\(escapedToken)", token: nil, body: json,
                                                 contentType: "application/json"))
        #expect(first.status == 200, "\(first.text)")
        #expect(Self.object(Array(first.text.utf8))["status"] as? String == "queued", "\(first.text)")
        // A client's retry within the minute is the same notification.
        let retry = try #require(await Self.send(port: port, path: path + "?token=\(escapedToken)", token: nil, body: json,
                                                 contentType: "application/json"))
        #expect(retry.status == 200 && Self.object(Array(retry.text.utf8))["status"] as? String == "duplicate", "\(retry.text)")
        // Text with a control character, with the header token and an idempotency key.
        let text = "AAPL crossed 190\nsecond line \u{1B}[31m"
        let keyed = try #require(await Self.send(port: port, path: path, token: token, body: text,
                                                 headers: [HTTPHeader("Idempotency-Key", "k-1")]))
        #expect(keyed.status == 200 && keyed.text.contains("queued"), "\(keyed.text)")
        let keyedAgain = try #require(await Self.send(port: port, path: path, token: token, body: text + " changed",
                                                      headers: [HTTPHeader("Idempotency-Key", "k-1")]))
        #expect(keyedAgain.status == 200 && keyedAgain.text.contains("duplicate"), "\(keyedAgain.text)")

        let requests = try await receiver.waitForRequests(count: 2)
        // Anything stored by a refused request would have gone out with these: wait a little.
        try await Task.sleep(for: .seconds(2))
        #expect(receiver.requests(path: "/hook").count == 2, "\(receiver.requests.map(\.bodyText))")
        let payloads = requests.map { Self.object($0.body) }
        let jsonPayload = try #require(payloads.first { $0["data"] != nil }, "\(requests.map(\.bodyText))")
        #expect(jsonPayload["kind"] as? String == "external")
        #expect(jsonPayload["title"] as? String == "TV")
        #expect(jsonPayload["text"] as? String == json)
        #expect((jsonPayload["data"] as? [String: Any])?["ticker"] as? String == "AAPL")
        let textPayload = try #require(payloads.first { $0["data"] == nil }, "\(requests.map(\.bodyText))")
        #expect(textPayload["kind"] as? String == "external")
        #expect(textPayload["text"] as? String == "AAPL crossed 190\nsecond line \\u{1b}[31m", "\(textPayload)")
        for request in requests {
            #expect(!request.bodyText.contains("refused-"))
        }

        // The token appears nowhere: not in /metrics, not in a log line.
        let metrics = try #require(await Self.send(port: port, path: "/metrics", token: token, body: "", method: .get))
        #expect(metrics.status == 200)
        #expect(!metrics.text.contains(token))
        #expect(try await daemon.stop() == 0)
        let lines = daemon.outputLines + daemon.errorLines
        #expect(!lines.isEmpty)
        #expect(!lines.contains { $0.contains(token) || $0.contains(escapedToken) }, "the token appears in the log")
    }

    @Test func aMessageAnsweredBeforeASIGKILLIsDeliveredOnceAfterRestart() async throws {
        let token = "relay-token-\(UUID().uuidString)"
        let directory = try TemporaryDirectory()
        let port = try DashboardDaemon.freePort()
        // The sink's receiver is down: its port refuses connections.
        let down = try RefusingPort()
        try Self.writeDaemon(in: directory, port: port, hookURL: "http://127.0.0.1:\(down.port)/hook")
        let first = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"],
                                      directory: directory.path, environment: ["API_TOKEN": token])
        try await Self.waitForEndpoint(first, port: port)
        let body = #"{"ticker":"BTCUSD","message":"survives a kill"}"#
        let answer = try #require(await Self.send(port: port, path: "/api/ingest/tradingview", token: token, body: body,
                                                  contentType: "application/json"))
        first.signal(SIGKILL)
        #expect(answer.status == 200, "\(answer.text)")
        let id = try #require(Self.object(Array(answer.text.utf8))["id"] as? String, "\(answer.text)")
        #expect(try await first.waitForExit() == SIGKILL, "killed by the signal")

        // Started again with the receiver up.
        let receiver = try LoopbackHTTPServer()
        defer { receiver.stop() }
        receiver.route("POST", "/hook") { _ in .status(204) }
        try Self.writeDaemon(in: directory, port: port, hookURL: receiver.baseURL + "/hook")
        let second = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"],
                                       directory: directory.path, environment: ["API_TOKEN": token])
        let delivered = try await receiver.waitForRequests(count: 1)
        // Give a second delivery time to show up.
        try await Task.sleep(for: .seconds(3))
        #expect(receiver.requests(path: "/hook").count == 1, "\(receiver.requests.map(\.bodyText))")
        let payload = Self.object(try #require(delivered.first).body)
        #expect(payload["id"] as? String == id)
        #expect(payload["kind"] as? String == "external")
        #expect(payload["text"] as? String == body)
        // Seen failing once under a full suite's load, not since: its standard error says why next time.
        #expect(try await second.stop() == 0, "the restarted daemon's standard error ends: \(second.errorLines.suffix(15))")
    }
}
