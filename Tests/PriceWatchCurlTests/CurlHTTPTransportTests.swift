import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

@Suite("CurlHTTPTransport round trips", .timeLimit(.minutes(1)))
struct CurlHTTPTransportTests {
    let server: LoopbackHTTPServer
    let transport = CurlHTTPTransport()

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test func getReturnsStatusHeadersAndBody() async throws {
        server.route("GET", "/v7/finance/quote") { request in
            .json(#"{"symbols":"\#(request.queryValue("symbols") ?? "")"}"#,
                  headers: [HTTPHeader("Set-Cookie", "A=1; Path=/"), HTTPHeader("Set-Cookie", "B=2; Path=/"),
                            HTTPHeader("X-Folded", "kept")])
        }
        let response = try await transport.send(HTTPRequest(
            url: server.baseURL + "/v7/finance/quote?symbols=AAPL%2CMSFT",
            headers: [HTTPHeader("Accept", "application/json"), HTTPHeader("X-Empty", "")]))

        #expect(response.status == 200)
        #expect(response.text == #"{"symbols":"AAPL,MSFT"}"#)
        #expect(response.header("content-type") == "application/json")
        #expect(response.headers(named: "Set-Cookie") == ["A=1; Path=/", "B=2; Path=/"])
        #expect(response.header("X-Folded") == "kept")
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "GET")
        #expect(recorded.path == "/v7/finance/quote")
        #expect(recorded.query == "symbols=AAPL%2CMSFT")
        #expect(recorded.header("Accept") == "application/json")
        #expect(recorded.header("X-Empty") == "")
        #expect(recorded.body.isEmpty)
    }

    @Test func postSendsBodyAndHeaders() async throws {
        server.route("POST", "/hook") { request in
            .text("got \(request.body.count) bytes of \(request.header("Content-Type") ?? "?")", status: 201)
        }
        let body = Array(#"{"alert":"AAPL crossed 200"}"#.utf8)
        let response = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL + "/hook",
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("X-Signature", "sha256=abc")], body: body))

        #expect(response.status == 201)
        #expect(response.text == "got \(body.count) bytes of application/json")
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "POST")
        #expect(recorded.body == body)
        #expect(recorded.header("X-Signature") == "sha256=abc")
        #expect(recorded.header("Expect") == nil)
    }

    @Test func largeBinaryPostAndPutArriveWhole() async throws {
        server.setFallback { request in .text("\(request.method) \(request.body.count)") }
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }  // includes NUL bytes
        let post = try await transport.send(HTTPRequest(method: .post, url: server.baseURL + "/upload", body: body))
        let put = try await transport.send(HTTPRequest(method: .put, url: server.baseURL + "/upload", body: body))
        let emptyPost = try await transport.send(HTTPRequest(method: .post, url: server.baseURL + "/upload"))

        #expect(post.text == "POST 300000")
        #expect(put.text == "PUT 300000")
        #expect(emptyPost.text == "POST 0")
        #expect(server.requests.map(\.body) == [body, body, []])
    }

    @Test func explicitExpectContinueKeepsOnlyTheFinalResponseHeaders() async throws {
        server.route("POST", "/expect") { _ in .text("done", headers: [HTTPHeader("X-Final", "yes")]) }
        let response = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL + "/expect", headers: [HTTPHeader("Expect", "100-continue")],
            body: Array(repeating: 65, count: 5000)))

        #expect(response.status == 200)
        #expect(response.text == "done")
        #expect(response.header("X-Final") == "yes")
        #expect(response.header("X-Interim") == nil, "headers of the 100 Continue must not leak into the final response")
        #expect(server.requests.first?.header("Expect") == "100-continue")
    }

    @Test(arguments: [404, 429, 500, 503])
    func errorStatusesAreResponses(status: Int) async throws {
        server.route("GET", "/status") { _ in .status(status, headers: [HTTPHeader("Retry-After", "7")], body: "nope") }
        let response = try await transport.send(HTTPRequest(url: server.baseURL + "/status"))

        #expect(response.status == status)
        #expect(response.text == "nope")
        #expect(response.retryAfterSeconds == 7)
    }

    @Test func sendsTheDefaultUserAgentUnlessTheRequestSetsOne() async throws {
        server.setFallback { _ in .text("ok") }
        _ = try await transport.send(HTTPRequest(url: server.baseURL + "/a"))
        _ = try await transport.send(HTTPRequest(url: server.baseURL + "/b", headers: [HTTPHeader("User-Agent", "Mozilla/5.0")]))

        #expect(server.requests.map { $0.header("User-Agent") } ==
            ["pricewatch/0.1.0 (+https://github.com/pricewatch/pricewatch)", "Mozilla/5.0"])
        #expect(CurlHTTPTransport.defaultUserAgent.hasPrefix("pricewatch/"))
    }

    @Test func decodesGzipAndChunkedBodies() async throws {
        let json = String(repeating: #"{"symbol":"AAPL","price":"189.25"},"#, count: 3000)
        server.route("GET", "/gzip") { _ in .json(json).gzipped() }
        server.route("GET", "/chunked") { _ in .json(json).chunked() }
        server.route("GET", "/both") { _ in .json(json).gzipped().chunked() }

        for path in ["/gzip", "/chunked", "/both"] {
            let response = try await transport.send(HTTPRequest(url: server.baseURL + path))
            #expect(response.text == json, "\(path)")
        }
        #expect(server.requests.allSatisfy { $0.header("Accept-Encoding")?.contains("gzip") == true })
    }

    @Test func redirectsAreFollowedOnlyWhenAsked() async throws {
        server.route("GET", "/old") { _ in
            .status(302, headers: [HTTPHeader("Location", "/new"), HTTPHeader("X-Hop", "1")], body: "see /new")
        }
        server.route("GET", "/new") { _ in .text("moved here") }

        let kept = try await transport.send(HTTPRequest(url: server.baseURL + "/old"))
        let followed = try await transport.send(HTTPRequest(url: server.baseURL + "/old", followsRedirects: true))

        #expect(kept.status == 302)
        #expect(kept.header("Location") == "/new")
        #expect(kept.text == "see /new")
        #expect(followed.status == 200)
        #expect(followed.text == "moved here")
        #expect(followed.header("X-Hop") == nil, "headers of the redirect must not leak into the final response")
        #expect(server.requests.map(\.path) == ["/old", "/old", "/new"])
    }

    @Test func manyConcurrentRequestsAllComplete() async throws {
        server.route("GET", "/echo") { request in .text(request.queryValue("n") ?? "") }
        let count = 200
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for n in 0..<count {
                group.addTask {
                    let response = try await transport.send(HTTPRequest(url: server.baseURL + "/echo?n=\(n)"))
                    return (n, response.text)
                }
            }
            var answers: [Int: String] = [:]
            for try await (n, text) in group { answers[n] = text }
            return answers
        }
        #expect(answers.count == count)
        #expect(answers.allSatisfy { String($0.key) == $0.value })
        #expect(server.requests.count == count)
    }
}
