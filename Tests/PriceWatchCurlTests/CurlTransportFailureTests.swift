import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

@Suite("CurlHTTPTransport failures", .timeLimit(.minutes(1)))
struct CurlTransportFailureTests {
    let server: LoopbackHTTPServer
    let transport = CurlHTTPTransport()

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test func deadlinePassingIsTimedOut() async throws {
        server.route("GET", "/never") { _ in .hang }
        let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + "/never", timeout: .milliseconds(200)))

        #expect(error?.kind == .timedOut)
        #expect(error?.message == "GET \(server.baseURL)/never: no complete response within 200ms (curl error 28)")
        #expect(error?.isRetryable == true)
    }

    @Test func bodyOverTheCapIsTooLarge() async throws {
        let big = String(repeating: "x", count: 10_000)
        server.route("GET", "/announced") { _ in .text(big) }               // Content-Length says so
        server.route("GET", "/streamed") { _ in .text(big).chunked() }     // only counting finds out
        server.route("GET", "/inflated") { _ in .text(big).gzipped().chunked() }
        server.route("GET", "/exact") { _ in .text(String(repeating: "y", count: 1000)) }

        for path in ["/announced", "/streamed", "/inflated"] {
            let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + path, maximumResponseBytes: 1000))
            #expect(error?.kind == .responseTooLarge, "\(path)")
            #expect(error?.message.contains("response body larger than 1000 bytes") == true, "\(path)")
        }
        let exact = try await transport.send(HTTPRequest(url: server.baseURL + "/exact", maximumResponseBytes: 1000))
        #expect(exact.body.count == 1000)
    }

    @Test func truncatedBodyIsConnectionFailed() async throws {
        server.route("GET", "/cut") { _ in .truncated(#"{"price":"189.25","symbol":"AAPL"}"#, afterBytes: 10) }
        let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + "/cut"))

        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.hasSuffix("(curl error 18)") == true)
    }

    @Test func closingWithoutAnswerIsConnectionFailed() async throws {
        server.route("GET", "/gone") { _ in .closeWithoutAnswer }
        let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + "/gone"))

        #expect(error?.kind == .connectionFailed)
        #expect(error?.message == "GET \(server.baseURL)/gone: the server closed the connection without answering (curl error 52)")
    }

    @Test func refusedConnectionIsConnectionFailed() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} } // the port stays taken until the test ends
        let baseURL = refusing.baseURL
        let error = await expectFailure(transport, HTTPRequest(url: baseURL + "/v7/finance/quote?symbols=AAPL"))

        #expect(error?.kind == .connectionFailed)
        #expect(error?.message == "GET \(baseURL)/v7/finance/quote: connection refused (curl error 7)")
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.com/quotes.csv", "gopher://example.com/", "scp://host/file",
                      "not a url", "", "//example.com/no-scheme", "http://exa mple.com/"])
    func onlyHTTPAndHTTPSAreAccepted(url: String) async throws {
        let error = await expectFailure(transport, HTTPRequest(url: url))
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.hasPrefix("GET ") == true)
    }

    @Test func redirectsToOtherProtocolsAreRefused() async throws {
        server.route("GET", "/to-file") { _ in .status(302, headers: [HTTPHeader("Location", "file:///etc/passwd")]) }
        let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + "/to-file", followsRedirects: true))

        #expect(error?.kind == .invalidRequest)
    }

    @Test func redirectLoopsStopAfterFive() async throws {
        server.route("GET", "/loop") { _ in .status(302, headers: [HTTPHeader("Location", "/loop")]) }
        let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + "/loop", followsRedirects: true))

        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("more than 5 redirects") == true)
        #expect(server.requests.count == 6)
    }

    @Test func headersThatWouldSmuggleLinesAreRefused() async throws {
        for header in [HTTPHeader("X-Evil", "a\r\nInjected: yes"), HTTPHeader("Bad Name", "x"), HTTPHeader("", "x")] {
            let error = await expectFailure(transport, HTTPRequest(url: server.baseURL + "/", headers: [header]))
            #expect(error?.kind == .invalidRequest)
        }
        #expect(server.requests.isEmpty)
    }

    @Test func secretsNeverAppearInErrors() async throws {
        let secret = "k3y-SECRET-0123456789"
        server.route("GET", "/never") { _ in .hang }
        let live = server.baseURL
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} } // the port stays taken until the test ends
        let deadURL = refusing.baseURL

        let requests = [
            HTTPRequest(url: live + "/never?symbol=AAPL&apikey=\(secret)", timeout: .milliseconds(100), redactions: [secret]),
            HTTPRequest(url: deadURL + "/api/\(secret)/quote?token=\(secret)", redactions: [secret]),
            HTTPRequest(url: "ftp://user:\(secret)@example.com/?key=\(secret)", redactions: [secret]),
            HTTPRequest(url: "http://[::1/\(secret)?key=\(secret)", redactions: [secret]),
        ]
        for request in requests {
            let error = await expectFailure(transport, request)
            let message = try #require(error?.message)
            #expect(!message.contains(secret), "\(message)")
            #expect(!message.contains("apikey") && !message.contains("token="), "\(message)")
        }
        let pathError = await expectFailure(transport, requests[1])
        #expect(pathError?.message == "GET \(deadURL)/api/<redacted>/quote: connection refused (curl error 7)")
    }
}
