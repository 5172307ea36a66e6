import Foundation
import Synchronization
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

/// Issue 29, item 11: slow clients took `/healthz` down. A client that trickles its request one
/// byte at a time never lets the idle read timeout pass, so `max_connections` of them held every
/// connection for as long as they liked, and a health check waited in the backlog until its
/// own deadline. Now a request must arrive, and finish arriving, within the deadline however it
/// trickles, and a new connection at the limit closes the connection that has waited longest for
/// its request to finish arriving.
@Suite(.serialized) struct SlowClientsTests {
    /// How many slow clients have sent their first bytes.
    final class Started: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Connects, sends `partial`, then one more byte every `every` (the
    /// behaviour of a slowloris client, not a wait of the test's), until the server closes the
    /// connection; the seconds that took. Throws when it stays open past `timeout`.
    static func trickle(port: Int, sending partial: String, every: Duration, timeout: Duration,
                        sent: @escaping @Sendable () -> Void) async throws -> Double {
        try await offPool {
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            try RawHTTP.send(fd, partial)
            sent()
            let start = ContinuousClock.now
            var buffer = [UInt8](repeating: 0, count: 1024)
            var nextByte = start.advanced(by: every)
            while start.duration(to: .now) < timeout {
                // Reads wait at most a second (SO_RCVTIMEO): 0 is the server's close.
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    let elapsed = start.duration(to: .now).components
                    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                }
                if ContinuousClock.now >= nextByte {
                    let sent = Foundation.send(fd, "a", 1, Int32(MSG_NOSIGNAL))
                    if sent < 0 {
                        let elapsed = start.duration(to: .now).components
                        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                    }
                    nextByte = nextByte.advanced(by: every)
                }
            }
            throw RawHTTP.Failure(description: "a client trickling its request kept its connection for \(timeout)")
        }
    }

    @Test func slowClientsOnEveryConnectionDoNotTakeHealthzDown() async throws {
        let demo = try DashboardDaemon(http: "max_connections = 4\n")
        try await demo.waitUntilListening()
        let port = demo.port
        // Two trickle a header, two a body (each byte a part the server reads: activity that the
        // idle timeout alone never ends).
        let partials = ["GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
                        "POST /api/silences HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4000\r\n\r\n{",
                        "POST /api/silences HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4000\r\n\r\n{"]
        let started = Started()
        let slow = partials.map { partial in
            Task {
                try await Self.trickle(port: port, sending: partial, every: .seconds(2), timeout: .seconds(60)) {
                    started.count.add(1, ordering: .relaxed)
                }
            }
        }
        // Every connection is taken once the slow clients have sent their first bytes.
        try await waitUntil("the slow clients to start (\(started.count.load(ordering: .relaxed)) of 4)") {
            started.count.load(ordering: .relaxed) == 4
        }
        let start = ContinuousClock.now
        // A transport of its own: a new connection, as a load balancer's check makes.
        let answer = try? await CurlHTTPTransport().send(HTTPRequest(url: demo.base + "/healthz", timeout: .seconds(20)))
        let health = try #require(answer, "/healthz did not answer within 20 s while slow clients held the connections")
        #expect(health.status == 200)
        #expect(start.duration(to: .now) < .seconds(10), "/healthz took \(start.duration(to: .now))")
        for client in slow {
            let seconds = try await client.value
            #expect(seconds < 30, "a trickling client kept its connection \(seconds) s (the deadline is 15 s)")
        }
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }
}
