import Foundation
import Logging
import PriceWatchCore
import PriceWatchProviders
import PriceWatchServices
import PriceWatchStore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

/// One read of the news (``NewsWatch``) with the real parts: Yahoo's feed reader against a
/// loopback feed, the SQLite store's ledger and outbox. A story goes into the outbox once,
/// with its rule's sinks; a feed that fails or is malformed stops neither the pass nor the
/// other symbols; a reopened store remembers what was seen and when each rule started.
@Suite struct NewsWatchTests {
    static let start = Timestamp(milliseconds: 1_800_000_000_000) // 2027-01-15T08:00:00Z

    static func feed(_ items: [(title: String, guid: String, pubDate: String)]) -> LoopbackResponse {
        let entries = items.map {
            "<item><title>\($0.title)</title><guid>\($0.guid)</guid><link>https://example.com/\($0.guid)</link>"
                + "<pubDate>\($0.pubDate)</pubDate></item>"
        }
        return LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/rss+xml")],
                                body: Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>\(entries.joined())</channel></rss>".utf8))
    }

    @Test func aStoryIsQueuedOnceAndAFailingFeedStopsNothing() async throws {
        let server = try LoopbackHTTPServer()
        let items = LockedItems()
        server.route("GET", "/rss/2.0/headline") { request in
            switch request.queryValue("s") {
            case "AAPL": Self.feed(items.value)
            case "BAD": LoopbackResponse(status: 200, headers: [], body: Array("<rss><channel><item><title>\u{1}".utf8))
            default: .status(503)
            }
        }
        let directory = try TemporaryDirectory()
        let path = directory.file("state.db")
        let rules = [EventRule(id: "aapl", event: .news, symbols: ["DOWN", "BAD", "AAPL"], notify: ["console", "hook"]),
                     EventRule(id: "recalls", event: .news, symbols: ["AAPL"], match: HeadlineMatch(["recall"]), notify: ["console"])]
        let source = YahooNewsFeed(transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let logs = CapturingLogHandler()
        do {
            let store = try SQLiteAlertStore.open(path: path)
            let watch = NewsWatch(ledger: store, outbox: store, logger: logs.logger)
            items.value = [("Apple recall widens", "old", "Fri, 15 Jan 2027 07:00:00 +0000")]
            let first = try await watch.pass(rules: rules, from: source, now: Self.start)
            #expect(first == NewsWatch.Outcome(symbolsRead: 1, symbolsFailed: 2, newStories: 1, queued: 0), "older than both rules")
            #expect(logs.lines.map(\.message).contains { $0.contains("could not read the news of DOWN") && $0.contains("503") }, "\(logs.lines.map(\.message))")
            #expect(logs.lines.map(\.message).contains { $0.contains("could not read the news of BAD") }, "\(logs.lines.map(\.message))")

            items.value += [("Apple recall widens to Europe", "new", "Fri, 15 Jan 2027 08:05:00 +0000"),
                            ("Apple opens a store", "store", "Fri, 15 Jan 2027 08:06:00 +0000")]
            let later = Timestamp(milliseconds: Self.start.milliseconds + 600_000)
            let second = try await watch.pass(rules: rules, from: source, now: later)
            #expect(second.queued == 3, "new to both rules, store to 'aapl' only: \(second)")
            let due = try await store.pendingDeliveries(dueBy: later, limit: 10)
            #expect(Set(due.map { "\($0.sink):\($0.notification.kind):\($0.notification.time.rfc3339)" }) == [
                "console:news:2027-01-15T08:05:00Z", "hook:news:2027-01-15T08:05:00Z",
                "console:news:2027-01-15T08:06:00Z", "hook:news:2027-01-15T08:06:00Z",
            ])
            #expect(due.count == 5, "aapl: two stories to two sinks; recalls: one story to one sink")
            #expect(try await watch.pass(rules: rules, from: source, now: later).queued == 0, "read again: nothing new")
        }
        // The store reopened (a restart): what was seen, and the rules' starts, are remembered.
        let reopened = try SQLiteAlertStore.open(path: path)
        let watch = NewsWatch(ledger: reopened, outbox: reopened, logger: logs.logger)
        let restarted = try await watch.pass(rules: rules, from: source, now: Timestamp(milliseconds: Self.start.milliseconds + 900_000))
        #expect(restarted.queued == 0 && restarted.newStories == 0, "\(restarted)")
        // A rule dropped and brought back starts afresh: the stories before its return are old.
        _ = try await watch.pass(rules: [rules[0]], from: source, now: Timestamp(milliseconds: Self.start.milliseconds + 960_000))
        let back = try await reopened.newsRuleStarts(["recalls"], now: Timestamp(milliseconds: Self.start.milliseconds + 1_000_000))
        #expect(back["recalls"] == Timestamp(milliseconds: Self.start.milliseconds + 1_000_000))
    }
}

/// The feed's items, changed by the test between passes.
final class LockedItems: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(title: String, guid: String, pubDate: String)] = []

    var value: [(title: String, guid: String, pubDate: String)] {
        get { lock.withLock { items } }
        set { lock.withLock { items = newValue } }
    }
}
