import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

/// The test server's own behaviour, driven through the real transport.
@Suite("LoopbackHTTPServer", .timeLimit(.minutes(1)))
struct LoopbackHTTPServerTests {
    let server: LoopbackHTTPServer
    let transport = CurlHTTPTransport()

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test func aSequenceAnswersInOrderThenRepeatsTheLast() async throws {
        server.route("GET", "/limited", sequence: [
            .status(429, headers: [HTTPHeader("Retry-After", "2")]),
            .status(503),
            .json("{}"),
        ])
        var statuses: [Int] = []
        for _ in 0..<4 {
            statuses.append(try await transport.send(HTTPRequest(url: server.baseURL + "/limited")).status)
        }
        #expect(statuses == [429, 503, 200, 200])
    }

    @Test func unroutedRequestsGetTheFallbackOrA404() async throws {
        let missing = try await transport.send(HTTPRequest(url: server.baseURL + "/nowhere"))
        #expect(missing.status == 404)
        #expect(missing.text == "no route for GET /nowhere")

        server.setFallback { request in .text("fallback for \(request.path)") }
        let fallback = try await transport.send(HTTPRequest(url: server.baseURL + "/nowhere"))
        #expect(fallback.text == "fallback for /nowhere")
    }

    @Test func routesMatchMethodAndPathButNotQuery() async throws {
        server.route("GET", "/q") { _ in .text("get") }
        server.route("POST", "/q") { _ in .text("post") }
        let get = try await transport.send(HTTPRequest(url: server.baseURL + "/q?a=1"))
        let post = try await transport.send(HTTPRequest(method: .post, url: server.baseURL + "/q?a=1"))
        #expect([get.text, post.text] == ["get", "post"])
    }

    @Test func queryValuesArePercentDecoded() async throws {
        server.setFallback { _ in .text("ok") }
        _ = try await transport.send(HTTPRequest(url: server.baseURL + "/search?q=BRK-B%2CAAPL&empty=&flag&name=caf%C3%A9"))

        let request = try #require(server.requests.first)
        #expect(request.queryValue("q") == "BRK-B,AAPL")
        #expect(request.queryValue("empty") == "")
        #expect(request.queryValue("flag") == "")
        #expect(request.queryValue("name") == "café")
        #expect(request.queryValue("absent") == nil)
        #expect(request.queryItems.map(\.name) == ["q", "empty", "flag", "name"])
    }

    @Test func waitingForRequestsReturnsOnceTheyArrived() async throws {
        server.route("GET", "/never") { _ in .hang }
        let transport = self.transport
        let url = server.baseURL + "/never"
        let tasks = (0..<3).map { _ in Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(600))) } }

        let arrived = try await server.waitForRequests(count: 3)
        #expect(arrived.count == 3)
        #expect(server.requests(path: "/never").count == 3)
        tasks.forEach { $0.cancel() }
        for task in tasks { _ = await task.result }
    }

    @Test func stoppingReleasesHangingAnswersAndIsIdempotent() async throws {
        server.route("GET", "/never") { _ in .hang }
        let transport = self.transport
        let url = server.baseURL + "/never"
        let task = Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(600))) }
        try await server.waitForRequests(count: 1)
        server.stop()
        server.stop()

        // The held connection is closed without an answer.
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.kind == .connectionFailed)
        await #expect(throws: WaitAbandoned.self, "waiting on a stopped server fails at once") {
            try await server.waitForRequests(count: 99)
        }
        #expect(server.requests.count == 1)
    }

    @Test func aHangingRequestDoesNotHoldUpOthers() async throws {
        server.route("GET", "/never") { _ in .hang }
        server.route("GET", "/quick") { _ in .text("quick") }
        let transport = self.transport
        let url = server.baseURL + "/never"
        let hanging = Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(600))) }
        try await server.waitForRequests(count: 1)

        let quick = try await transport.send(HTTPRequest(url: server.baseURL + "/quick"))
        #expect(quick.text == "quick")
        hanging.cancel()
        _ = await hanging.result
    }
}
