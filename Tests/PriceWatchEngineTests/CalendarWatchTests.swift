import Foundation
import Logging
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Calendar rules (issue 28): when a reminder is due in the market's local time, and the
/// calendar look with the real SQLite store and outbox: a reminder once per rule and event
/// across a reopened store, a changed estimate nothing new, a moved date a new reminder with
/// its note, a calendar read at most once a day, a failing source stopping nothing.
@Suite struct CalendarWatchTests {
    static let newYork = WeeklyMarketHours(
        markets: [MarketIdentifier("XNYS"): .init(timeZone: "America/New_York", sessions: [.init("09:30", "16:00")])],
        symbols: ["NVDA": MarketIdentifier("XNYS")])

    static func date(_ text: String) -> CivilDate {
        guard let date = CivilDate(parsing: text) else { preconditionFailure("bad date in a test") }
        return date
    }

    static func at(_ text: String) -> Timestamp {
        guard let date = ISO8601DateFormatter().date(from: text) else { preconditionFailure("bad time in a test") }
        return Timestamp(milliseconds: Int64(date.timeIntervalSince1970 * 1000))
    }

    @Test func aReminderIsDueAtTheSessionOpenInTheMarketsZoneLessBefore() {
        // Monday 30 November 2026: New York opens at 09:30 EST, 14:30 UTC.
        let earnings = CompanyEvent(symbol: "NVDA", kind: .earnings, date: Self.date("2026-11-30"), source: "yahoo")
        let onTheDay = EventReminder.window(of: earnings, before: nil, hours: Self.newYork)
        #expect(onTheDay.due.rfc3339 == "2026-11-30T14:30:00Z")
        #expect(onTheDay.end.rfc3339 == "2026-12-01T05:00:00Z", "until midnight in New York")
        let dayBefore = EventReminder.window(of: earnings, before: RuleDuration(seconds: 86_400), hours: Self.newYork)
        #expect(dayBefore.due.rfc3339 == "2026-11-29T14:30:00Z")
        // Summer time: 09:30 EDT is 13:30 UTC.
        let july = CompanyEvent(symbol: "NVDA", kind: .exDividend, date: Self.date("2026-07-15"), source: "yahoo")
        #expect(EventReminder.window(of: july, before: nil, hours: Self.newYork).due.rfc3339 == "2026-07-15T13:30:00Z")
        // A Saturday has no session: midnight, local; a market nobody knows: midnight UTC.
        let saturday = CompanyEvent(symbol: "NVDA", kind: .dividendPayment, date: Self.date("2026-11-28"), source: "yahoo")
        #expect(EventReminder.window(of: saturday, before: nil, hours: Self.newYork).due.rfc3339 == "2026-11-28T05:00:00Z")
        let unknown = CompanyEvent(symbol: "ASML.AS", kind: .earnings, date: Self.date("2026-11-30"), source: "yahoo")
        #expect(EventReminder.window(of: unknown, before: nil, hours: Self.newYork).due.rfc3339 == "2026-11-30T00:00:00Z")
        // An estimated range may be reminded of until its last day ends.
        let range = CompanyEvent(symbol: "NVDA", kind: .earnings, date: Self.date("2026-11-30"), lastDate: Self.date("2026-12-02"),
                                 source: "yahoo")
        #expect(EventReminder.isDue(range, before: nil, hours: Self.newYork, now: Self.at("2026-12-02T20:00:00Z")))
        #expect(!EventReminder.isDue(range, before: nil, hours: Self.newYork, now: Self.at("2026-12-03T06:00:00Z")))
        #expect(!EventReminder.isDue(earnings, before: nil, hours: Self.newYork, now: Self.at("2026-11-30T14:29:59Z")))
    }

    /// A calendar the test changes between looks; counts its reads.
    final class Calendar: CompanyCalendarSource, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [CompanyEvent] = []
        private var failing = false
        private(set) var reads = 0
        let calendarName: String

        init(name: String = "yahoo") {
            calendarName = name
        }

        func set(_ events: [CompanyEvent], failing: Bool = false) {
            lock.withLock {
                self.events = events
                self.failing = failing
            }
        }

        func events(for symbol: String) async throws(ProviderError) -> [CompanyEvent] {
            let (events, failing) = lock.withLock { () -> ([CompanyEvent], Bool) in
                reads += 1
                return (self.events, self.failing)
            }
            if failing { throw ProviderError(.transient, "\(calendarName) calendar for \(symbol): HTTP 503: try later") }
            return events.filter { $0.symbol == symbol }
        }
    }

    @Test func aReminderGoesOutOnceAMovedDateAgainWithItsNote() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state.db")
        let rule = EventRule(id: "nvda-earnings", event: .earnings, symbols: ["NVDA"], before: RuleDuration(seconds: 7 * 86_400),
                             notify: ["console"])
        let calendar = Calendar()
        let logs = CapturingLogHandler()
        // Thursday 10 December, reminded a week ahead: Thursday 3 December at 09:30 EST.
        calendar.set([CompanyEvent(symbol: "NVDA", kind: .earnings, date: Self.date("2026-12-10"), estimate: ExactDecimal(scaled: 66_000_000),
                                   source: "yahoo")])
        do {
            let store = try SQLiteAlertStore.open(path: path)
            let watch = CalendarWatch(store: store, outbox: store, hours: Self.newYork, logger: logs.logger)
            #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-03T14:00:00Z")) == 0, "not yet due")
            #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-03T14:30:00Z")) == 1, "due: 09:30 EST")
            #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-03T15:00:00Z")) == 0)
            #expect(calendar.reads == 1, "read once a day")
            let due = try await store.pendingDeliveries(dueBy: Self.at("2026-12-03T15:00:00Z"), limit: 10)
            #expect(due.map(\.notification.kind.rawValue) == ["event"])
            guard case .message(let message)? = due.first?.notification.content else {
                Issue.record("expected a message")
                return
            }
            #expect(message.title == "NVDA: Earnings of NVDA on 2026-12-10 (EPS estimate 0.66)")
        }
        // Reopened (a restart), the next day's read brings a changed estimate: nothing new.
        let store = try SQLiteAlertStore.open(path: path)
        let watch = CalendarWatch(store: store, outbox: store, hours: Self.newYork, logger: logs.logger)
        calendar.set([CompanyEvent(symbol: "NVDA", kind: .earnings, date: Self.date("2026-12-10"), estimate: ExactDecimal(scaled: 70_000_000),
                                   source: "yahoo")])
        #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-04T15:00:00Z")) == 0)
        #expect(calendar.reads == 2)
        // The date moves to Friday 11 December: a new event, reminded of at once, with its note.
        calendar.set([CompanyEvent(symbol: "NVDA", kind: .earnings, date: Self.date("2026-12-11"), source: "yahoo")])
        #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-05T15:00:00Z")) == 1)
        let moved = try await store.companyEvents(of: ["NVDA"])
        #expect(moved.map(\.text) == ["earnings of NVDA on 2026-12-11 (moved from 2026-12-10)"])
        let pending = try await store.pendingDeliveries(dueBy: Self.at("2026-12-05T15:00:00Z"), limit: 10)
        #expect(pending.count == 2)
        #expect(logs.lines.contains { $0.message.contains("earnings of NVDA on 2026-12-11 (moved from 2026-12-10) (yahoo)") })
        // A source that fails is logged and stops nothing; then a calendar without the date.
        calendar.set([], failing: true)
        #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-06T16:00:00Z")) == 0)
        #expect(logs.lines.contains { $0.level == .warning && $0.message.hasPrefix("could not read the calendar of NVDA from yahoo") })
        calendar.set([])
        #expect(try await watch.pass(rules: [rule], from: calendar, now: Self.at("2026-12-07T17:00:00Z")) == 0)
        #expect(logs.lines.contains { $0.message == "no upcoming earnings date known for NVDA (yahoo)" }, "\(logs.lines.map(\.message))")
    }

    @Test func aSourceThatFailsWhileAnotherAnswersIsAskedAgainAfterAnHourAndTheirDetailsMerge() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteAlertStore.open(path: directory.file("state.db"))
        let logs = CapturingLogHandler()
        let watch = CalendarWatch(store: store, outbox: store, hours: Self.newYork, logger: logs.logger)
        let rule = EventRule(id: "aapl-ex", event: .exDividend, symbols: ["AAPL"], before: nil, notify: ["console"])
        let yahoo = Calendar(name: "yahoo")
        let nasdaq = Calendar(name: "nasdaq")
        let exDay = Self.date("2026-12-14")
        yahoo.set([CompanyEvent(symbol: "AAPL", kind: .exDividend, date: exDay, source: "yahoo")])
        nasdaq.set([CompanyEvent(symbol: "AAPL", kind: .exDividend, date: exDay, source: "nasdaq",
                                 amount: ExactDecimal("0.26"), currency: "USD")], failing: true)

        #expect(try await watch.refresh(rules: [rule], from: [yahoo, nasdaq], now: Self.at("2026-12-07T10:00:00Z")) == 1)
        #expect(try await watch.refresh(rules: [rule], from: [yahoo, nasdaq], now: Self.at("2026-12-07T10:59:00Z")) == 0,
                "within the hour nothing is asked again")
        #expect((yahoo.reads, nasdaq.reads) == (1, 1))
        nasdaq.set([CompanyEvent(symbol: "AAPL", kind: .exDividend, date: exDay, source: "nasdaq",
                                 amount: ExactDecimal("0.26"), currency: "USD")])
        #expect(try await watch.refresh(rules: [rule], from: [yahoo, nasdaq], now: Self.at("2026-12-07T11:00:00Z")) == 1)
        #expect((yahoo.reads, nasdaq.reads) == (1, 2), "an hour after its failure the failed source alone is asked again")
        // Yahoo's next read (a day after its last) lists the day without the amount: it stays.
        #expect(try await watch.refresh(rules: [rule], from: [yahoo, nasdaq], now: Self.at("2026-12-08T10:00:00Z")) == 1)
        #expect((yahoo.reads, nasdaq.reads) == (2, 2))
        let stored = try await store.companyEvents(of: ["AAPL"])
        #expect(stored.map(\.text) == ["ex-dividend day of AAPL on 2026-12-14 (0.26 USD per share)"])
        #expect(stored.first?.source == "yahoo", "one event, of the source read last")
        let reads = try await store.calendarReads(of: ["AAPL"])
        #expect(reads.map(\.source) == ["nasdaq", "yahoo"])
        #expect(reads.allSatisfy { $0.failedAt == nil }, "a success clears the failure")
    }
}
