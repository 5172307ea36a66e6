import PriceWatchCore
@testable import PriceWatchHTTP
import PriceWatchPresentation
import Testing

/// The symbol page (`/symbol/X`) rendered from a snapshot: the figures of the watchlist, the
/// day's chart (with the previous close, the rules' levels and the day's alerts) or why there
/// is none, and only this symbol's rules and alerts.
struct SymbolPageTests {
    static func point(_ minute: Int64, _ price: Int64) -> HistoryPoint {
        HistoryPoint(time: Timestamp(milliseconds: 1_800_000_000_000 + minute * 60_000), price: ExactDecimal(scaled: price * 100_000_000))
    }

    static func alert(_ rule: String, _ symbol: String, minute: Int64, price: Int64) -> DashboardSnapshot.AlertLine {
        let time = point(minute, 0).time
        return .init(alert: Alert(id: "\(rule)-\(minute)", rule: rule, symbol: symbol, provider: "p", condition: "above 104",
                                  price: ExactDecimal(scaled: price * 100_000_000), currency: "USD", time: time, base: nil,
                                  change: nil, direction: nil, message: "\(symbol) is above 104"),
                     deliveries: [(sink: "hook", status: "delivered")])
    }

    static func snapshot(points: [HistoryPoint]) -> DashboardSnapshot {
        let level = ChartLevel(role: .threshold, price: ExactDecimal(scaled: 104 * 100_000_000), label: "x-above-104")
        let symbols: [DashboardSnapshot.Symbol] = [
            .init(symbol: "X", provider: "p", lastPrice: points.last, previousClose: ExactDecimal(scaled: 100 * 100_000_000),
                  market: .open(until: point(400, 0).time), dayPoints: points, marketName: "XNYS",
                  marketTimeZone: "America/New_York", currency: "USD", levels: [level]),
            .init(symbol: "Y", provider: "p", lastPrice: nil, market: nil),
        ]
        let rules = [
            RuleStatus(rule: "x-above-104", symbol: "X", provider: "p", condition: "above 104", state: .fired,
                       lastPrice: points.last, lastAlert: nil),
            RuleStatus(rule: "y-below-5", symbol: "Y", provider: "p", condition: "below 5", state: .armed, lastPrice: nil, lastAlert: nil),
        ]
        return DashboardSnapshot(symbols: symbols, rules: rules,
                                 alerts: [alert("x-above-104", "X", minute: 20, price: 105), alert("y-below-5", "Y", minute: 21, price: 4)],
                                 now: point(40, 0).time)
    }

    @Test func aWatchedSymbolsPageHasItsFiguresChartRulesAndAlerts() throws {
        let points = [Self.point(0, 101), Self.point(10, 103), Self.point(20, 105), Self.point(30, 102)]
        let html = try #require(SymbolPage.page("X", snapshot: Self.snapshot(points: points), live: LiveQuotes()))
        #expect(html.contains("<h1>X</h1>"))
        #expect(html.contains("<span class=\"price big\">102.00</span>"))
        #expect(html.contains("<span class=\"change up\">+2.00%</span>"), "the change from the previous close, as watch shows it")
        // Both themes, wide and narrow (phones), each an image with a title and a summary a
        // screen reader reads.
        #expect(html.components(separatedBy: "role=\"img\"").count == 5)
        #expect(html.contains("class=\"chart chart-light\"") && html.contains("class=\"chart chart-dark\""))
        #expect(html.contains("class=\"chart chart-light chart-narrow\"") && html.contains("class=\"chart chart-dark chart-narrow\""))
        #expect(html.contains("viewBox=\"0 0 420 320\""), "the narrow layout is drawn at its own size")
        #expect(html.contains("<desc>X today, 4 prices: opened the chart at 101.00, now 102.00, low 101.00, high 105.00; "
                              + "previous close 100.00; rule levels: x-above-104 at 104.00; 1 alert today; times in America/New_York.</desc>"))
        #expect(html.contains(">prev close"), "the previous close is a labelled line")
        #expect(html.contains(">x-above-104"), "the rule's level is labelled with its id")
        #expect(html.contains("<dt>Day range</dt><dd>101.00 – 105.00</dd>"))
        #expect(html.contains("<dt>Market</dt><dd>XNYS: open, closes <time"))
        #expect(html.contains("<td>x-above-104</td><td>above 104</td>"))
        #expect(!html.contains("y-below-5"), "only this symbol's rules and alerts")
        #expect(html.contains("hook: delivered"))
        #expect(!html.contains("src=\"http"), "no external asset")
    }

    @Test func fewerThanThreePricesSayThereIsNotEnoughData() throws {
        let html = try #require(SymbolPage.page("X", snapshot: Self.snapshot(points: [Self.point(0, 101), Self.point(1, 102)]),
                                                live: LiveQuotes()))
        #expect(html.contains("not enough data for a chart: 2 price(s) today, expected at least 3"))
        #expect(!html.contains("<svg"), "no line between two points")
    }

    @Test func aSymbolNoRuleWatchesHasNoPageAndItsNameIsEscaped() {
        #expect(SymbolPage.page("Z", snapshot: Self.snapshot(points: []), live: LiveQuotes()) == nil)
        let missing = SymbolPage.notWatched("<script>x</script>")
        #expect(missing.contains("no rule watches the symbol &lt;script&gt;x&lt;/script&gt;"))
        #expect(!missing.contains("<script>x"))
    }

    @Test func aMarketThatNeverClosesIsOpenWithoutACountdownAndAnUnknownOneSaysSo() throws {
        var snapshot = Self.snapshot(points: [])
        snapshot.symbols[0].marketName = "24/7"
        snapshot.symbols[0].market = .open(until: Timestamp(milliseconds: .max))
        let html = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes()))
        #expect(html.contains("<dd>24/7: open</dd>"))
        let unknown = try #require(SymbolPage.page("Y", snapshot: snapshot, live: LiveQuotes()))
        #expect(unknown.contains(">–</span>"))
        #expect(!unknown.contains(">open<"), "never open by default")
    }

    @Test func theWatchlistLinksEachSymbolToItsPage() {
        var snapshot = Self.snapshot(points: [])
        snapshot.symbols.append(.init(symbol: "^GSPC", provider: "p", lastPrice: nil, market: nil))
        let html = DashboardPage.sections(snapshot, live: LiveQuotes())
        #expect(html.contains("<a href=\"symbol/X\">X</a>"))
        #expect(html.contains("<a href=\"symbol/%5EGSPC\">^GSPC</a>"))
    }

    /// Issue 26, item 2: ranges beyond the day chart the history read for them, against the
    /// close before the range, with links to every range (the current one marked) and where the
    /// prices came from; too few prices or no history are said, never drawn.
    @Test func aRangeChartsTheHistoryAgainstTheCloseBeforeIt() throws {
        let snapshot = Self.snapshot(points: [Self.point(0, 100), Self.point(5, 103)])
        let days = (0..<5).map { HistoryPoint(time: Timestamp(milliseconds: 1_799_600_000_000 + Int64($0) * 86_400_000),
                                              price: ExactDecimal(scaled: Int64(90 + $0) * 100_000_000)) }
        let history = DashboardHistory.read(points: days, startingClose: ExactDecimal(scaled: 88 * 100_000_000),
                                            source: "stored history, backfilled from provider 'yahoo' before it", note: nil)
        let html = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), range: .fiveDays, history: history))
        #expect(html.contains("<a href=\"?range=5d\" aria-current=\"page\">5D</a>"))
        #expect(html.contains("<a href=\"?range=1d\">1D</a>") && html.contains("<a href=\"?range=5y\">5Y</a>"))
        #expect(html.contains("X over 5 days, 5 prices: opened the chart at 90.00, now 94.00, low 90.00, high 94.00; "
                              + "close before the range 88.00"), "the summary: \(html)")
        #expect(html.contains("before range"), "the reference line's label")
        #expect(html.contains("+6.82% 5D"), "the title's change over the range: 94 from 88")
        #expect(html.contains("5 prices from stored history, backfilled from provider &#39;yahoo&#39; before it")
                || html.contains("5 prices from stored history, backfilled from provider 'yahoo' before it"), "\(html)")
        #expect(!html.contains("not enough data"))
        // Five days of intraday candles: a dashed break where each new session starts.
        let dayBreaks = SessionBreaks.between(days.map(\.time), timeZone: "America/New_York")
        #expect(dayBreaks.count == 4)
        let oneYear = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), range: .oneYear, history: history))
        // Counted in the wide light chart (the other variants draw the same breaks).
        let dashes = { (page: String) -> Int in
            let light = page.components(separatedBy: "class=\"chart chart-light\"").dropFirst().first?.components(separatedBy: "</svg>").first ?? ""
            return light.components(separatedBy: "stroke-dasharray=\"2 3\"").count - 1
        }
        #expect(dashes(html) == dashes(oneYear) + dayBreaks.count,
                "the 5-day chart draws 4 breaks; daily candles none (\(dashes(html)), \(dashes(oneYear)))")
        #expect(html.contains("Holdings") == false, "no holdings section without holdings read")
        let held = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), holdings: DashboardHoldings()))
        #expect(held.contains("<section id=\"holdings\"><h2>Holdings</h2>") && held.contains("not held in any portfolio or paper account"))

        let sparse = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), range: .oneYear,
                                                  history: .read(points: Array(days.prefix(2)), startingClose: nil, source: "stored history",
                                                                 note: "provider 'replay' (type replay) has no chart endpoint")))
        #expect(sparse.contains("not enough data for a chart: 2 price(s) over a year, expected at least 3"))
        #expect(sparse.contains("has no chart endpoint"), "why the history stops short")
        let none = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), range: .oneMonth,
                                                history: .failed("no stored history of X in this range")))
        #expect(none.contains("no chart over a month: no stored history of X in this range"))
    }

    /// Issue 26: the facts carry the 52-week range of the 1Y history (written as the day range,
    /// with where the history starts when it covers less, `–` when nothing is known) and the
    /// day's volume of the latest quote, only when the quote reports one.
    /// Issue 28: the calendar rules' upcoming events, with their source; none known, no section.
    @Test func upcomingEventsAreListedWithTheirSource() throws {
        let snapshot = Self.snapshot(points: [Self.point(0, 101), Self.point(10, 103)])
        guard let date = CivilDate(parsing: "2026-12-11"), let before = CivilDate(parsing: "2026-12-10") else {
            Issue.record("bad date")
            return
        }
        let events = [CompanyEvent(symbol: "X", kind: .earnings, date: date, estimate: ExactDecimal(scaled: 66_000_000), source: "yahoo",
                                   movedFrom: before),
                      CompanyEvent(symbol: "X", kind: .exDividend, date: date, source: "yahoo")]
        let page = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), events: events))
        #expect(page.contains("<section id=\"events\"><h2>Upcoming events</h2>"))
        #expect(page.contains("<li><time datetime=\"2026-12-11\">2026-12-11</time> earnings of X on 2026-12-11 "
                              + "(EPS estimate 0.66; moved from 2026-12-10) <span class=\"muted\">(yahoo)</span></li>"), "\(page)")
        #expect(page.contains("ex-dividend day of X on 2026-12-11"))
        #expect(!(try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes()))).contains("id=\"events\""))
    }

    @Test func theFactsHaveTheYearRangeAndTheDaysVolume() async throws {
        let snapshot = Self.snapshot(points: [Self.point(0, 101), Self.point(10, 103), Self.point(20, 105)])
        func year(_ range: YearRange?) -> DashboardHistory {
            .read(points: [], startingClose: nil, source: "stored history", note: nil, yearRange: range)
        }
        let low = ExactDecimal(scaled: 12_010_000_000), high = ExactDecimal(scaled: 19_962_000_000)
        let whole = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), year: year(YearRange(low: low, high: high))))
        #expect(whole.contains("<dt>52-week range</dt><dd>120.10 – 199.62</dd>"), "\(whole)")
        let since = try #require(Timestamp(parsing: "2026-03-14T13:30:00Z"))
        let part = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(),
                                                year: year(YearRange(low: low, high: high, knownSince: since))))
        #expect(part.contains("<dt>52-week range</dt><dd>120.10 – 199.62 (from 14 Mar 2026)</dd>"), "less than 52 weeks is said")
        for unknown in [year(nil), DashboardHistory.failed("no stored history of X in this range")] {
            let page = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes(), year: unknown))
            #expect(page.contains("<dt>52-week range</dt><dd>–</dd>"), "nothing known, nothing guessed")
        }
        let unread = try #require(SymbolPage.page("X", snapshot: snapshot, live: LiveQuotes()))
        #expect(!unread.contains("52-week range"), "not read, not shown")
        #expect(!unread.contains("Day&#39;s volume"), "no quote received: no volume")

        let live = LiveQuotes()
        let time = Self.point(30, 0).time
        _ = await live.receive(PolledQuotes(provider: "p", results: ["X": .success(Quote(
            symbol: "X", price: ExactDecimal(scaled: 104 * 100_000_000), time: time, dayVolume: ExactDecimal(scaled: 4_821_356_700_000_000)))],
                                            time: time))
        let traded = try #require(SymbolPage.page("X", snapshot: snapshot, live: live))
        #expect(traded.contains("<dt>Day&#39;s volume</dt><dd>48,213,567</dd>"), "\(traded)")
        // A provider that reports no volume (Binance's is of 24 hours, Finnhub's none): never 0.
        let later = Self.point(31, 0).time
        _ = await live.receive(PolledQuotes(provider: "p", results: ["X": .success(Quote(
            symbol: "X", price: ExactDecimal(scaled: 104 * 100_000_000), time: later))], time: later))
        let silent = try #require(SymbolPage.page("X", snapshot: snapshot, live: live))
        #expect(!silent.contains("Day&#39;s volume"), "the latest quote reported none")
        #expect(SymbolPage.volumeText(ExactDecimal(scaled: 123_456_789_000)) == "1,234.56", "a fractional volume cut to two decimals")
        #expect(SymbolPage.volumeText(ExactDecimal(scaled: 99_900_000_000)) == "999")
        #expect(SymbolPage.volumeText(.zero) == "0")
    }

    @Test func theRangeQueryIsOneOfTheOffered() throws {
        #expect(try SymbolPage.range(query: nil).get() == .oneDay)
        #expect(try SymbolPage.range(query: "").get() == .oneDay)
        #expect(try SymbolPage.range(query: "6mo").get() == .sixMonths)
        for bad in ["2w", "max", "5D", "1d\u{1b}"] {
            guard case .failure(let problem) = SymbolPage.range(query: bad) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(problem.description.hasPrefix("range: expected one of 1d, 5d, 1mo, 6mo, 1y, 5y, found \""), "\(problem)")
            #expect(!problem.description.contains("\u{1b}"), "control characters escaped")
        }
    }
}
