import Foundation
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The daemon's digest jobs over a real SQLite store and the real scheduler with manual
/// clocks: a digest is queued at its due time with the period's movers, once per due time,
/// across a restart after it ran and a repeated run.
@Suite struct DigestJobsTests {
    typealias F = EngineFixtures
    /// 2024-10-02 18:00 in New York (EDT).
    static let due = Timestamp(seconds: 1_727_906_400)

    static func at(_ hoursBeforeDue: Int64) -> Int64 { due.seconds - hoursBeforeDue * 3600 }

    @Test func eachDueTimeQueuesOneDigestAcrossRestarts() async throws {
        let store = try SQLiteAlertStore.open(path: try F.temporaryDirectory() + "/state.db")
        defer { try? store.close() }
        // Over the day before the due time: AAPL 100 -> 110 (+10 %), MSFT 200 -> 190 (-5 %),
        // TSLA nothing. The closes before the period are the baselines.
        try await store.recordQuotes([F.quote("AAPL", "100", at: Self.at(30)), F.quote("AAPL", "110", at: Self.at(1)),
                                      F.quote("MSFT", "200", at: Self.at(30)), F.quote("MSFT", "190", at: Self.at(2))])
        let settings = DigestSettings(name: "daily", schedule: try CalendarSchedule(parsing: "daily 18:00 America/New_York"),
                                      period: .day, notify: ["recorder"], charts: false)
        var configuration = F.configuration(rules: [F.rule("a", .above(F.decimal("1000")), symbols: ["AAPL", "MSFT", "TSLA"])])
        configuration.digests = [settings]
        let frozen = configuration
        let jobs = DigestJobs(builder: DigestBuilder(history: store, alerts: store, marketHours: AlwaysOpenMarkets(), renderer: nil,
                                                     logger: F.logger),
                              outbox: store, configuration: { frozen }, wallClock: { Self.due }, logger: F.logger,
                              render: { DigestNotification($0).message() })

        let first = JobSchedulerTests.Life(jobs: jobs.jobs(for: [settings]), store: store, start: Timestamp(seconds: Self.at(1)))
        try await first.advance(to: Timestamp(seconds: Self.due.seconds + 60))
        await first.stop()
        let far = Timestamp(seconds: Self.due.seconds + 86_400)
        let queued = try await store.pendingDeliveries(sink: "recorder", dueBy: far, limit: 10)
        #expect(queued.count == 1)
        let delivery = try #require(queued.first)
        #expect(delivery.notification.id == settings.notificationID(due: Self.due))
        #expect(delivery.notification.kind == .digest)
        #expect(delivery.notification.time == Self.due)
        guard case .message(let message) = delivery.notification.content else {
            Issue.record("a digest is a message, found \(delivery.notification.content)")
            return
        }
        #expect(message.title == "pricewatch digest daily: 2024-10-01 18:00 to 2024-10-02 18:00")
        #expect(message.text.contains("Top gainers\n  AAPL     +10.00%  100.00 -> 110.00\n"), "\(message.text)")
        #expect(message.text.contains("Top losers\n  MSFT     -5.00%  200.00 -> 190.00\n"), "\(message.text)")
        #expect(message.text.contains("No prices in the period: TSLA"), "\(message.text)")

        // A restart after the due time, and the job run again for the same due time: nothing new.
        let second = JobSchedulerTests.Life(jobs: jobs.jobs(for: [settings]), store: store, start: Timestamp(seconds: Self.due.seconds + 120))
        try await second.advance(to: Timestamp(seconds: Self.due.seconds + 600))
        await second.stop()
        try await jobs.run(name: "daily", due: Self.due)
        #expect(try await store.pendingDeliveries(sink: "recorder", dueBy: far, limit: 10).count == 1)
    }

    @Test func aDigestRemovedByAReloadIsSkipped() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let jobs = DigestJobs(builder: DigestBuilder(history: store, alerts: store, marketHours: AlwaysOpenMarkets(), renderer: nil,
                                                     logger: F.logger),
                              outbox: store, configuration: { F.configuration(rules: []) }, wallClock: { Self.due }, logger: F.logger,
                              render: { DigestNotification($0).message() })
        try await jobs.run(name: "gone", due: Self.due)
        #expect(try await store.pendingDeliveryCount() == 0)
    }
}
