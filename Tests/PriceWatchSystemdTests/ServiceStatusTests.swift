import PriceWatchCore
import PriceWatchSystemd
import PriceWatchTestKit
import Synchronization
import Testing

/// The status line and its rate limit, on a manual clock.
@Suite struct ServiceStatusTests {
    final class Published: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }

        /// Waits until `count` lines are published (the status task runs on the pool).
        func waitFor(_ count: Int) async throws {
            try await waitUntil("\(count) published status line(s) (\(all.count) so far)") { all.count >= count }
        }
    }

    static let t0 = Timestamp(milliseconds: 1_727_875_800_250)
    static func at(_ seconds: Int64) -> Timestamp { Timestamp(milliseconds: t0.milliseconds + seconds * 1000) }

    @Test func theLineHasTheSummaryTheLastPollAndTheBacklogWithANoteFirst() async throws {
        let published = Published()
        let status = ServiceStatus(clock: ManualClock(), minimumInterval: .seconds(10), pendingDeliveries: { 3 },
                                   publish: { published.append($0) })
        #expect(status.running("2 rules on 1 symbol, 1 provider, 1 sink") == "2 rules on 1 symbol, 1 provider, 1 sink")
        let task = Task { await status.run() }
        defer { task.cancel() }
        status.polled(provider: "demo", at: Self.t0)
        try await published.waitFor(1)
        #expect(published.all == ["2 rules on 1 symbol, 1 provider, 1 sink; last poll 2024-10-02T13:30:00Z (demo); 3 pending deliveries"])
        #expect(status.note("configuration reload rejected (1 error); running the previous one")
                == "configuration reload rejected (1 error); running the previous one; 2 rules on 1 symbol, 1 provider, 1 sink; last poll 2024-10-02T13:30:00Z (demo)")
        #expect(status.running("3 rules on 1 symbol, 1 provider, 1 sink") == "3 rules on 1 symbol, 1 provider, 1 sink; last poll 2024-10-02T13:30:00Z (demo)")
    }

    /// The first poll is published at once; the many polls of the next 10 s make one update,
    /// at the end of the interval, with the newest poll; without polls nothing is published.
    @Test func pollsArePublishedAtMostOncePerInterval() async throws {
        let clock = ManualClock()
        let published = Published()
        let status = ServiceStatus(clock: clock, minimumInterval: .seconds(10), pendingDeliveries: { nil },
                                   publish: { published.append($0) })
        _ = status.running("summary")
        let task = Task { await status.run() }
        defer { task.cancel() }

        status.polled(provider: "a", at: Self.t0)
        try await published.waitFor(1)
        status.polled(provider: "b", at: Self.at(0))
        try await clock.waitForSleepers(1) // the second update waits for the interval
        for second in 1...9 {
            clock.advance(by: .seconds(1))
            status.polled(provider: second % 2 == 0 ? "a" : "b", at: Self.at(Int64(second)))
        }
        #expect(published.all.count == 1)
        clock.advance(by: .seconds(1))
        try await published.waitFor(2)
        #expect(published.all.last == "summary; last poll 2024-10-02T13:30:09Z (b)")

        // No poll since: nothing more, however long.
        clock.advance(by: .seconds(3600))
        for _ in 0..<1000 { await Task.yield() }
        #expect(published.all.count == 2)
        #expect(clock.sleeperCount == 0, "waiting for a poll, not for time")

        // The next poll, long after the last update, is published at once.
        status.polled(provider: "a", at: Self.at(4000))
        try await published.waitFor(3)
        #expect(published.all.last == "summary; last poll 2024-10-02T14:36:40Z (a)")
    }
}
