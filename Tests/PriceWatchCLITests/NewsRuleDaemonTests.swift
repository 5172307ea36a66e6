import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Synchronization
import Testing

/// Issue 28, news: the daemon reads the headline feed of a news rule's symbols (a loopback
/// stand-in for Yahoo's per-symbol RSS feed) and sends each new, matching story once, through
/// the outbox, across restarts: nothing older than the rule, nothing twice, nothing that does
/// not match.
@Suite struct NewsRuleDaemonTests {
    struct Item: Sendable {
        var title: String
        var guid: String
        var link: String
        var published: Date
    }

    /// The feed's items, changed by the test between runs of the daemon.
    final class Feed: Sendable {
        let items = Mutex<[Item]>([])

        var xml: String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
            let entries = items.withLock { $0 }.map { item in
                """
                <item><title>\(item.title)</title><guid isPermaLink="false">\(item.guid)</guid>\
                <link>\(item.link)</link><pubDate>\(formatter.string(from: item.published))</pubDate></item>
                """
            }
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><description>Latest Financial News for AAPL</description>
                \(entries.joined(separator: "\n"))
                </channel></rss>
                """
        }
    }

    static let feedPath = "/rss/2.0/headline"

    @Test func aNewMatchingStoryIsSentOnceAcrossRestartsAndOldOnesNever() async throws {
        let feed = Feed()
        let server = try LoopbackHTTPServer()
        server.route("GET", Self.feedPath) { request in
            request.queryValue("s") == "AAPL"
                ? LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/rss+xml")], body: Array(feed.xml.utf8))
                : .status(404)
        }
        let directory = try TemporaryDirectory()
        try directory.write("rules.d/news.toml", """
            [[rule]]
            id = "aapl-guidance"
            symbol = "AAPL"
            event = "news"
            match = ["guidance", "recall"]
            """)
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            [news]
            base_url = "\(server.baseURL)"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            [sinks.console]
            type = "stdout"
            """)
        // An old story that matches: older than the rule, never sent.
        feed.items.withLock {
            $0 = [Item(title: "Apple Raises Guidance", guid: "old-1", link: "https://example.com/old-1",
                       published: Date().addingTimeInterval(-3600))]
        }
        let first = try await runOnce(in: directory, feedReads: server)
        #expect(first.news.isEmpty, "\(first.news)")

        // After the rule started: one matching story (listed twice, under a second guid with
        // the same link) and one that does not match.
        let later = Date().addingTimeInterval(2)
        feed.items.withLock {
            $0 += [Item(title: "Apple Lifts Revenue Guidance for the Holiday Quarter", guid: "new-1", link: "https://example.com/new-1",
                        published: later),
                   Item(title: "Apple Lifts Revenue Guidance for the Holiday Quarter", guid: "new-1-again",
                        link: "https://example.com/new-1", published: later),
                   Item(title: "Apple Opens a Store in Milan", guid: "new-2", link: "https://example.com/new-2", published: later)]
        }
        let second = try await runOnce(in: directory, feedReads: server, waitingFor: "Guidance for the Holiday")
        #expect(second.news.count == 1, "\(second.news)")
        #expect(second.news.first?.contains("AAPL: Apple Lifts Revenue Guidance for the Holiday Quarter") == true, "\(second.news)")
        #expect(second.news.first?.contains("https://example.com/new-1") == true, "\(second.news)")

        // A restart reads the same feed: nothing is sent again.
        let third = try await runOnce(in: directory, feedReads: server)
        #expect(third.news.isEmpty, "\(third.news)")
    }

    /// Runs the daemon until its first read of the news is done (and, with `waitingFor`, until
    /// a notification containing it is printed), then stops it; returns its `NEWS` lines.
    private func runOnce(in directory: TemporaryDirectory, feedReads server: LoopbackHTTPServer,
                         waitingFor expected: String? = nil) async throws -> (news: [String], log: [String]) {
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-level", "debug"], directory: directory.path)
        try await waitUntil("the daemon's first read of the news", timeout: defaultWaitTimeout) {
            daemon.errorLines.contains { $0.contains("news read: 1 of 1 feeds") } || !daemon.isRunning
        }
        if let expected {
            try await daemon.waitForOutput("the news notification with \(expected)") { lines in lines.contains { $0.contains(expected) } }
        }
        let status = try await daemon.stop()
        #expect(status == 0, "\(daemon.errorLines)")
        return (daemon.outputLines.filter { $0.hasPrefix("NEWS ") }, daemon.errorLines)
    }
}
