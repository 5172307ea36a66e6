import CompressNIO
import NIOCore
import PriceWatchCore
@testable import PriceWatchHTTP
import Synchronization
import Testing

/// The dashboard's page is rendered once per snapshot and poll received, and served as the
/// same bytes meanwhile: every request between two polls costs a copy, not a rendering.
struct RenderedDashboardTests {
    /// A source whose snapshots count the reads and show the price it is given.
    final class CountingSource: DashboardSource {
        let reads = Mutex(0)
        func snapshot() async -> DashboardSnapshot {
            reads.withLock { $0 += 1 }
            return DashboardSnapshot(symbols: [.init(symbol: "X", provider: "p", lastPrice: nil, market: .closed(until: nil))],
                                     now: Timestamp(seconds: 1_800_000_000))
        }
        func healthProblems() async -> [String] { [] }
        func alertLog(matching query: AlertQuery, limit: Int) async -> DashboardAlertLog { DashboardAlertLog() }
        func portfolios(named name: String?) async -> DashboardPortfolios { .valued([]) }
        func marketOverview() async -> [DashboardMarket] { [] }
        func history(of symbol: String, range: HistoryRange) async -> DashboardHistory { .failed("none") }
        func holdings(of symbol: String) async -> DashboardHoldings { DashboardHoldings() }
        func paper(account: String?) async -> DashboardPaper { .leaderboard(standings: [], currency: "USD") }
        func updateScrapedMetrics(_ exporter: MetricsExporter) async {}
    }

    static func poll(_ price: Int64) -> PolledQuotes {
        let time = Timestamp(seconds: 1_800_000_000 + price)
        return PolledQuotes(provider: "p", results: ["X": .success(Quote(symbol: "X", price: ExactDecimal(scaled: price * 100_000_000), time: time))],
                            time: time)
    }

    @Test func theSameBytesUntilAPollArrives() async {
        let source = CountingSource()
        // Snapshots shared for an hour: no second read, however slow the machine.
        let cache = SnapshotCache(source: source, executor: LowPriorityExecutor(name: "test-render"), maximumAge: .seconds(3_600))
        let live = LiveQuotes()
        _ = await live.receive(Self.poll(110))
        let first = await cache.rendered(.page, live: live).identity
        let second = await cache.rendered(.page, live: live).identity
        #expect(first == second)
        let sameStorage = first.withUnsafeReadableBytes { a in second.withUnsafeReadableBytes { b in a.baseAddress == b.baseAddress } }
        #expect(sameStorage, "the second request is served the first rendering's bytes")
        #expect(String(buffer: first).contains("<td class=\"price\">110.00</td>"))
        let sections = await cache.rendered(.sections, live: live).identity
        #expect(String(buffer: sections).contains("<td class=\"price\">110.00</td>"))
        #expect(!String(buffer: sections).contains("<html"), "the sections alone")

        _ = await live.receive(Self.poll(120))
        let after = await cache.rendered(.page, live: live).identity
        #expect(String(buffer: after).contains("<td class=\"price\">120.00</td>"), "a poll renders the page again")
        #expect(source.reads.withLock { $0 } == 1, "one snapshot read while it is fresh, however many renderings")
    }

    @Test func theGzipOfAPageIsMadeOnceAndInflatesToThePage() async throws {
        let cache = SnapshotCache(source: CountingSource(), executor: LowPriorityExecutor(name: "test-render"), maximumAge: .seconds(3_600))
        let live = LiveQuotes()
        _ = await live.receive(Self.poll(110))
        let first = await cache.rendered(.page, live: live)
        let second = await cache.rendered(.page, live: live)
        var gzip = try #require(first.gzip, "the page is compressed when rendered")
        let sameStorage = gzip.withUnsafeReadableBytes { a in second.gzip?.withUnsafeReadableBytes { b in a.baseAddress == b.baseAddress } }
        #expect(sameStorage == true, "compressed once, not per request")
        #expect(gzip.readableBytes < first.identity.readableBytes / 2, "\(gzip.readableBytes) of \(first.identity.readableBytes) bytes")
        #expect(gzip.getBytes(at: gzip.readerIndex, length: 2) == [0x1f, 0x8b], "the gzip magic number")
        let inflated = try gzip.decompress(with: .gzip)
        #expect(inflated == first.identity)
        #expect(first.body(for: AcceptEncoding(["gzip, deflate, br"])).encoding == "gzip")
        #expect(first.body(for: AcceptEncoding([])).encoding == nil)
    }
}
