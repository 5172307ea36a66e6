import Foundation
import PriceWatchCore
@testable import PriceWatchHTTP
import PriceWatchServices
import Testing

/// The endpoint's pure parts: the token comparison, HTML escaping, the listen address and the
/// exposition text of every metric the services record.
struct DashboardUnitTests {
    @Test func theTokenComparisonNeedsEveryByteAndTheLength() {
        let token = Array("abcdef".utf8)
        #expect(ConstantTime.equal(token, Array("abcdef".utf8)))
        #expect(!ConstantTime.equal(token, Array("abcdeg".utf8)))
        #expect(!ConstantTime.equal(token, Array("abcde".utf8)))
        #expect(!ConstantTime.equal(token, Array("abcdef0".utf8)))
        #expect(!ConstantTime.equal(token, []))
    }

    @Test func textIsEscapedForHTML() {
        #expect(DashboardPage.escape("<script>\"a\" & 'b'</script>") == "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;")
        #expect(JSONText.string("a\"</script>\n") == "\"a\\\"\\u003c/script>\\n\"")
    }

    @Test func listenAddressesAndLoopback() {
        #expect(HTTPEndpointSettings.parseListen("127.0.0.1:8490")! == ("127.0.0.1", 8490))
        #expect(HTTPEndpointSettings.parseListen("[::1]:80")! == ("::1", 80))
        #expect(HTTPEndpointSettings.parseListen("8490") == nil)
        #expect(HTTPEndpointSettings.parseListen("::1:80") == nil)
        #expect(HTTPEndpointSettings.parseListen("127.0.0.1:70000") == nil)
        #expect(HTTPEndpointSettings.isLoopback("127.0.0.1"))
        #expect(HTTPEndpointSettings.isLoopback("127.1.2.3"))
        #expect(HTTPEndpointSettings.isLoopback("localhost"))
        #expect(HTTPEndpointSettings.isLoopback("::1"))
        #expect(!HTTPEndpointSettings.isLoopback("0.0.0.0"))
        #expect(!HTTPEndpointSettings.isLoopback("192.168.1.2"))
        #expect(!HTTPEndpointSettings.isLoopback("127.example.com"))
    }

    @Test func everyMetricPassesPromtool() async throws {
        let exporter = MetricsExporter()
        let metrics = DaemonMetrics(factory: exporter.factory)
        metrics.polled(provider: "yahoo", failure: nil, at: Timestamp(milliseconds: 1_727_875_800_000))
        metrics.polled(provider: "yahoo", failure: ProviderError(.transient, "timeout"), at: Timestamp(milliseconds: 1_727_875_860_000))
        metrics.requested(provider: "yahoo", duration: .milliseconds(120), error: nil)
        metrics.requested(provider: "yahoo", duration: .seconds(3), error: ProviderError(.rateLimited, "429"))
        metrics.quoteAccepted(provider: "yahoo")
        metrics.pollTimed(provider: "yahoo", phases: PollPhase.allCases.map { ($0, .milliseconds(30)) }, total: .milliseconds(120))
        metrics.quoteRejected(provider: "yahoo", reason: "non_positive_price")
        metrics.alertFired(rule: "aapl-above-200")
        metrics.delivered(sink: "ntfy", outcome: "delivered")
        metrics.delivered(sink: "ntfy", outcome: "retry", count: 2)
        for name in ["pricewatch_outbox_pending_deliveries", "pricewatch_outbox_oldest_pending_age_seconds",
                     "pricewatch_rules_watched", "pricewatch_symbols_watched"] {
            exporter.set(name, to: 3)
        }
        exporter.set("pricewatch_build_info", labels: [("version", "0.1.0")], to: 1)
        let text = String(decoding: exporter.render(), as: UTF8.self)
        #expect(text.contains("pricewatch_provider_errors_total{provider=\"yahoo\",kind=\"rate_limited\"} 1"))
        #expect(text.contains("pricewatch_deliveries_total{sink=\"ntfy\",outcome=\"retry\"} 2"))
        #expect(text.contains("# HELP pricewatch_alerts_fired_total"))
        #expect(text.contains("pricewatch_provider_request_duration_seconds_count{provider=\"yahoo\"} 2"))
        let check = try await Promtool.checkMetrics(text)
        #expect(check.status == 0, "promtool check metrics: \(check.output)\n\(text)")
    }

    /// The command name of `/proc/self/stat` may hold spaces and parentheses; fields are
    /// counted after the last `)`.
    @Test func processFiguresAreReadFromProcStat() throws {
        let stat = "4242 (pw (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 50 0 0 20 0 6 0 12345 104857600 2560 18446744073709551615"
        let fields = try #require(ProcessMetrics.statFields(stat))
        #expect(fields.userTicks == 150 && fields.systemTicks == 50)
        #expect(fields.startTicks == 12345)
        #expect(fields.virtualBytes == 104_857_600 && fields.residentPages == 2560)
        #expect(ProcessMetrics.statFields("4242 (cut") == nil)
        #expect(ProcessMetrics.bootTime("cpu  1 2 3\nbtime 1764000000\nprocesses 9\n") == 1_764_000_000)
        let text = ProcessMetrics(cpuSeconds: 2.5, residentBytes: 1_048_576).exposition
        #expect(text == """
            # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
            # TYPE process_cpu_seconds_total counter
            process_cpu_seconds_total 2.5
            # HELP process_resident_memory_bytes Resident memory size in bytes.
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes 1048576

            """)
    }

    @Test func theSparklineAndTheChangeFromThePreviousClose() {
        let points = [HistoryPoint(time: Timestamp(milliseconds: 0), price: ExactDecimal(scaled: 100_00000000)),
                      HistoryPoint(time: Timestamp(milliseconds: 60_000), price: ExactDecimal(scaled: 102_00000000))]
        // Issue 30, item 3: from the previous close, as `watch` shows it, not from the first candle.
        let change = DashboardPage.changeText(price: ExactDecimal(scaled: 226_81000000), previousClose: ExactDecimal(scaled: 226_15000000))
        #expect(change.text == "+0.29%")
        #expect(change.css == "up")
        let fall = DashboardPage.changeText(price: ExactDecimal(scaled: 99_00000000), previousClose: ExactDecimal(scaled: 100_00000000))
        #expect(fall.text == "-1.00%" && fall.css == "down")
        #expect(DashboardPage.changeText(price: ExactDecimal(scaled: 99_00000000), previousClose: nil).text == "–")
        #expect(DashboardPage.sparkline(points).contains("<polyline"))
        #expect(!DashboardPage.sparkline(Array(points.prefix(1))).contains("<polyline"))
    }
}

/// The watchlist's sparkline takes stored history when the application gives it, and the
/// quotes received since start otherwise.
struct DashboardSparklineSourceTests {
    static func point(_ minute: Int64, _ price: Int64) -> HistoryPoint {
        HistoryPoint(time: Timestamp(milliseconds: 1_800_000_000_000 + minute * 60_000), price: ExactDecimal(scaled: price * 100_000_000))
    }

    @Test func storedHistoryFirstThenReceivedQuotes() async {
        let live = LiveQuotes()
        _ = await live.receive(PolledQuotes(provider: "p", results: ["X": .success(Quote(symbol: "X", price: ExactDecimal(scaled: 110_00000000),
                                                                                           time: Self.point(30, 0).time))],
                                            time: Self.point(30, 0).time))
        let stored = [Self.point(0, 100), Self.point(5, 105)]
        let snapshot = DashboardSnapshot(symbols: [.init(symbol: "X", provider: "p", lastPrice: nil, market: .open(until: Self.point(600, 0).time),
                                                         dayPoints: stored)], now: Self.point(31, 0).time)
        let html = DashboardPage.sections(snapshot, live: live)
        #expect(html.contains("<td class=\"change flat\">–</td>"), "no previous close known: no change, whatever the first candle")
        #expect(!html.contains("+10.0"), "not from the first stored close (100)")
        let withoutHistory = DashboardSnapshot(symbols: [.init(symbol: "X", provider: "p", lastPrice: nil, market: .closed(until: nil))],
                                               now: Self.point(31, 0).time)
        let html2 = DashboardPage.sections(withoutHistory, live: live)
        #expect(html2.contains("<td class=\"price\">110.00</td>"))
        #expect(html2.contains("<td class=\"market\">closed</td>"))
    }

    /// Issue 26, item 1: a watchlist row has the day's range, the market with its state, the
    /// quote's time and provider, and a mark when the price is stale; a fresh one has none.
    @Test func aRowHasTheDayRangeMarketQuoteTimeAndStaleness() async {
        let stored = [Self.point(0, 100), Self.point(5, 108), Self.point(10, 98), Self.point(15, 101)]
        func row(stale: Bool) -> String {
            let snapshot = DashboardSnapshot(symbols: [.init(symbol: "X", provider: "yahoo", lastPrice: Self.point(15, 101),
                                                             market: .open(until: Self.point(600, 0).time), dayPoints: stored,
                                                             marketName: "XNYS", isStale: stale)], now: Self.point(16, 0).time)
            return DashboardPage.sections(snapshot, live: LiveQuotes())
        }
        let fresh = row(stale: false)
        #expect(fresh.contains("<tr data-symbol=\"X\"><td class=\"symbol\">"), "\(fresh)")
        #expect(fresh.contains("<td class=\"range\">98.00 – 108.00</td>"), "lowest and highest of the day")
        #expect(fresh.contains("<td class=\"market\">XNYS open</td>"))
        #expect(fresh.contains("<td class=\"quote\"><time datetime=\"\(Self.point(15, 0).time.rfc3339)\">"))
        #expect(fresh.contains("<span class=\"muted\">yahoo</span></td>"))
        #expect(!fresh.contains("stale"))
        #expect(!fresh.contains("Market –:"), "no note without an unknown market")
        let stale = row(stale: true)
        #expect(stale.contains("<tr data-symbol=\"X\" class=\"stale\">"))
        #expect(stale.contains(">stale</strong></td>"))
        #expect(stale.contains("Stale: no newer quote while its market traded for longer than <code>stale_after</code>."), "said once")
    }

    /// Issue 26: a live update writes a price as the first render does (two decimals stay two).
    @Test func liveUpdatesWritePricesAsTheFirstRender() async {
        let time = Self.point(30, 0).time
        let quotes = [Quote(symbol: "X", price: ExactDecimal(scaled: 225_70000000), time: time),
                      Quote(symbol: "Y", price: ExactDecimal(scaled: 110_00000000), time: time),
                      Quote(symbol: "Z", price: ExactDecimal(scaled: 1234), time: time)]
        let event = LiveQuotes.event(provider: "p", time: time, quotes: quotes)
        #expect(event.contains(#"{"symbol":"X","price":"225.70"}"#), "\(event)")
        #expect(event.contains(#"{"symbol":"Y","price":"110.00"}"#), "\(event)")
        #expect(event.contains(#"{"symbol":"Z","price":"0.00001234"}"#), "\(event)")
        let live = LiveQuotes()
        _ = await live.receive(PolledQuotes(provider: "p", results: ["X": .success(quotes[0])], time: time))
        let snapshot = DashboardSnapshot(symbols: [.init(symbol: "X", provider: "p", lastPrice: nil, market: .closed(until: nil))],
                                         now: Self.point(31, 0).time)
        #expect(DashboardPage.sections(snapshot, live: live).contains("<td class=\"price\">225.70</td>"))
    }

    /// Issue 30, item 3: the change from the previous close the latest quote carried (the
    /// stored one until a quote arrives), and `unknown` for a symbol on no known market.
    @Test func theChangeIsFromThePreviousCloseAndAnUnknownMarketSaysSo() async {
        let live = LiveQuotes()
        let stored = [Self.point(0, 100), Self.point(5, 105)]
        let snapshot = DashboardSnapshot(symbols: [.init(symbol: "X", provider: "p", lastPrice: Self.point(5, 105),
                                                         previousClose: ExactDecimal(scaled: 104_00000000), market: nil,
                                                         dayPoints: stored)], now: Self.point(6, 0).time)
        let before = DashboardPage.sections(snapshot, live: live)
        #expect(before.contains("<td class=\"change up\">+0.96%</td>"), "105 from the stored previous close 104: \(before)")
        #expect(before.contains("<td class=\"market muted\">–</td>"), "`–`, never open by default")
        #expect(before.contains("Market –: the trading calendars do not know the symbol's market"), "said once under the table")
        #expect(!before.contains("open</td>"))
        _ = await live.receive(PolledQuotes(provider: "p", results: ["X": .success(Quote(
            symbol: "X", price: ExactDecimal(scaled: 110_00000000), time: Self.point(30, 0).time,
            previousClose: ExactDecimal(scaled: 100_00000000)))], time: Self.point(30, 0).time))
        let after = DashboardPage.sections(snapshot, live: live)
        #expect(after.contains("<td class=\"change up\">+10.00%</td>"), "110 from the quote's previous close 100: \(after)")
    }
}

/// Issue 26: the page shows times as people read them (`26 Nov 12:09 UTC`) in `<time>`
/// elements the script turns to the viewer's zone, never a raw timestamp with milliseconds.
struct DashboardTimeTests {
    @Test("times read as day, month and minute in UTC, the year only when it is not this one", arguments: [
        (Int64(1_795_694_940_000), 2026, "26 Nov 12:09 UTC"),
        (Int64(1_794_027_900_000), 2026, "7 Nov 05:05 UTC"),
        (Int64(1_767_225_599_000), 2026, "31 Dec 2025 23:59 UTC"),
        (Int64(0), 2026, "1 Jan 1970 00:00 UTC"),
        (Int64(-1), nil, "31 Dec 1969 23:59 UTC"),
        (Int64(1_709_208_000_000), 2024, "29 Feb 12:00 UTC"),
    ] as [(Int64, Int?, String)])
    func dayMonthText(milliseconds: Int64, currentYear: Int?, expected: String) {
        #expect(Timestamp(milliseconds: milliseconds).dayMonthText(currentYear: currentYear) == expected)
    }

    @Test func theSectionsShowTimesInTimeElementsWithoutMilliseconds() {
        let now = Timestamp(milliseconds: 1_795_694_940_000)
        let alert = Alert(id: "a1", rule: "aapl-above-200", symbol: "AAPL", provider: "yahoo", condition: "above 200",
                          price: ExactDecimal(scaled: 201_00000000), currency: "USD", time: Timestamp(milliseconds: 1_795_694_700_123),
                          base: nil, change: nil, direction: nil, message: "AAPL above 200")
        let snapshot = DashboardSnapshot(alerts: [.init(alert: alert, deliveries: [("ntfy", "delivered")])],
                                         providers: [.init(name: "yahoo", interval: .seconds(60), lastPoll: now)],
                                         pendingDeliveries: 1, oldestPending: Timestamp(milliseconds: 1_795_694_000_000), now: now)
        let html = DashboardPage.sections(snapshot, live: LiveQuotes())
        #expect(html.contains("<time datetime=\"2026-11-26T12:05:00.123Z\">26 Nov 12:05 UTC</time>"), "\(html)")
        #expect(html.contains("<time datetime=\"2026-11-26T12:09:00Z\">26 Nov 12:09 UTC</time>"), "\(html)")
        #expect(html.contains("oldest since <time datetime=\"2026-11-26T11:53:20Z\">26 Nov 11:53 UTC</time>"), "\(html)")
        // Outside the attributes no time is written with seconds or milliseconds.
        let text = html.replacingOccurrences(of: #"datetime="[^"]*""#, with: "", options: .regularExpression)
        #expect(text.range(of: #"\d\d:\d\d:\d\d"#, options: .regularExpression) == nil, "\(text)")
        #expect(DashboardPage.style.contains("time{white-space:nowrap}"))
        #expect(DashboardPage.script.contains("time[datetime]"))
    }
}
