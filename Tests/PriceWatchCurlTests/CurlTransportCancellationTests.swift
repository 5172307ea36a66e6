import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

@Suite("CurlHTTPTransport cancellation", .timeLimit(.minutes(1)))
struct CurlTransportCancellationTests {
    let server: LoopbackHTTPServer
    let transport = CurlHTTPTransport()

    init() throws {
        server = try LoopbackHTTPServer()
    }

    /// The deadline is a minute, so only cancellation can end the request within the time limit,
    /// and it must end it with `.cancelled`, not `.timedOut`.
    @Test func cancellingAHangingRequestEndsItWithCancelled() async throws {
        server.route("GET", "/never") { _ in .hang }
        let transport = self.transport
        let url = server.baseURL + "/never"
        let task = Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(600))) }
        try await server.waitForRequests(count: 1)
        task.cancel()

        let result = await task.result
        let error = try #require(throws: HTTPTransportError.self) { try result.get() }
        #expect(error.kind == .cancelled)
        #expect(error.message == "GET \(url): cancelled")
    }

    @Test func manyCancelledRequestsLeaveTheTransportWorking() async throws {
        server.route("GET", "/never") { _ in .hang }
        server.route("GET", "/ok") { _ in .text("still here") }
        let transport = self.transport
        let url = server.baseURL + "/never"
        let tasks = (0..<50).map { _ in Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(600))) } }
        try await server.waitForRequests(count: 50)
        tasks.forEach { $0.cancel() }
        for task in tasks {
            let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
            #expect(error.kind == .cancelled)
        }

        let response = try await transport.send(HTTPRequest(url: server.baseURL + "/ok"))
        #expect(response.text == "still here")
    }

    @Test func aTaskCancelledBeforeSendingSendsNothing() async throws {
        server.setFallback { _ in .text("should not be asked") }
        let transport = self.transport
        let url = server.baseURL + "/x"
        let gate = AsyncGate()
        let task = Task {
            await gate.wait()
            return try await transport.send(HTTPRequest(url: url))
        }
        task.cancel()
        await gate.open()
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.kind == .cancelled)
    }

    @Test func aGatedAnswerArrivesOnceTheGateOpens() async throws {
        let gate = LoopbackGate()
        server.route("GET", "/slow") { _ in .text("late").after(gate) }
        let transport = self.transport
        let url = server.baseURL + "/slow"
        let task = Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(600))) }
        try await server.waitForRequests(count: 1)
        #expect(!gate.opened)
        gate.open()

        #expect(try await task.value.text == "late")
    }
}

/// Holds a task until the test opens it, without sleeping (ignores cancellation on purpose).
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}
