import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore
import Testing

/// The shipped calendars at the instants that matter: daylight-saving changes, lunch breaks,
/// one-off closures, early closes, weekends, and the pseudo-markets.
@Suite("Trading calendars")
struct TradingCalendarTests {
    let markets = ShippedCalendars.calendars
    func date(_ text: String) -> CivilDate { ShippedCalendars.date(text) }
    func at(_ text: String) -> Timestamp { ShippedCalendars.instant(text) }
    func session(_ market: String, _ day: String) -> TradingSession? {
        markets.calendar(for: MarketIdentifier(market))?.session(on: date(day))
    }

    @Test func shippedCalendarsLoadWithoutDiagnostics() {
        #expect(ShippedCalendars.loaded.diagnostics.isEmpty, "\(ShippedCalendars.loaded.diagnostics)")
        #expect(markets.markets.map(\.rawValue) == ["24/5", "24/7", "CMES", "XASX", "XETR", "XHKG", "XLON", "XNYS", "XPAR",
                                                     "XSHG", "XSWX", "XTKS", "XTSE"])
    }

    @Test func newYorkKeepsItsWallClockHoursAcrossTheAmericanDaylightSavingChange() {
        // 2024-03-10: clocks go forward in New York; Europe changes three weeks later.
        #expect(session("XNYS", "2024-03-08")?.open == at("2024-03-08T14:30:00Z"))
        #expect(session("XNYS", "2024-03-11")?.open == at("2024-03-11T13:30:00Z"))
        #expect(session("XNYS", "2024-03-11")?.close == at("2024-03-11T20:00:00Z"))
        #expect(markets.status(of: MarketIdentifier("XNYS"), at: at("2024-03-11T13:45:00Z")) == .open(until: at("2024-03-11T20:00:00Z")))
        // 2024-11-03: back to standard time.
        #expect(session("XNYS", "2024-11-04")?.open == at("2024-11-04T14:30:00Z"))
        // Friday evening to the Monday open across the change.
        #expect(markets.status(of: MarketIdentifier("XNYS"), at: at("2024-03-08T22:00:00Z")) == .closed(until: at("2024-03-11T13:30:00Z")))
    }

    @Test func europeanMarketsFollowTheEuropeanDaylightSavingChange() {
        // 2024-03-31: clocks go forward in Europe (London 08:00 GMT, then 08:00 BST).
        #expect(session("XLON", "2024-03-28")?.open == at("2024-03-28T08:00:00Z"))
        #expect(session("XLON", "2024-03-29") == nil)      // Good Friday
        #expect(session("XLON", "2024-04-01") == nil)      // Easter Monday
        #expect(session("XLON", "2024-04-02")?.open == at("2024-04-02T07:00:00Z"))
        // 2024-10-27: back to winter time in Frankfurt.
        #expect(session("XETR", "2024-10-25")?.close == at("2024-10-25T15:30:00Z"))
        #expect(session("XETR", "2024-10-28")?.close == at("2024-10-28T16:30:00Z"))
        #expect(markets.status(of: MarketIdentifier("XETR"), at: at("2024-10-25T16:00:00Z")) == .closed(until: at("2024-10-28T08:00:00Z")))
    }

    @Test func tokyoHongKongAndShanghaiCloseForLunch() {
        let tokyo = MarketIdentifier("XTKS")
        #expect(markets.status(of: tokyo, at: at("2024-11-05T02:00:00Z")) == .open(until: at("2024-11-05T02:30:00Z")))
        #expect(markets.status(of: tokyo, at: at("2024-11-05T02:45:00Z")) == .closed(until: at("2024-11-05T03:30:00Z")))
        // The afternoon session runs to 15:30 since 2024-11-05, to 15:00 before.
        #expect(markets.status(of: tokyo, at: at("2024-11-05T03:30:00Z")) == .open(until: at("2024-11-05T06:30:00Z")))
        #expect(session("XTKS", "2024-11-01")?.close == at("2024-11-01T06:00:00Z"))
        #expect(markets.status(of: MarketIdentifier("XHKG"), at: at("2024-06-03T04:30:00Z")) == .closed(until: at("2024-06-03T05:00:00Z")))
        #expect(markets.status(of: MarketIdentifier("XSHG"), at: at("2024-06-03T04:00:00Z")) == .closed(until: at("2024-06-03T05:00:00Z")))
        #expect(markets.status(of: MarketIdentifier("XSHG"), at: at("2024-06-03T02:00:00Z")) == .open(until: at("2024-06-03T03:30:00Z")))
    }

    @Test func aOneOffClosureIsAClosedDay() {
        // The national day of mourning for President George H. W. Bush.
        let nyse = markets.calendar(for: MarketIdentifier("XNYS"))
        #expect(session("XNYS", "2018-12-05") == nil)
        #expect(nyse?.holidayName(on: date("2018-12-05")) == "National Day of Mourning for President George H. W. Bush")
        #expect(markets.status(of: MarketIdentifier("XNYS"), at: at("2018-12-05T15:00:00Z")) == .closed(until: at("2018-12-06T14:30:00Z")))
        #expect(session("XNYS", "2018-12-04") != nil)
        #expect(session("XNYS", "2018-12-06") != nil)
    }

    @Test func earlyClosesShortenTheSessionAndDropTheBreakTheyCut() {
        // The day after Thanksgiving closes at 13:00 New York time.
        #expect(session("XNYS", "2024-11-29")?.close == at("2024-11-29T18:00:00Z"))
        #expect(markets.status(of: MarketIdentifier("XNYS"), at: at("2024-11-29T18:30:00Z")) == .closed(until: at("2024-12-02T14:30:00Z")))
        // Hong Kong's Christmas Eve half day ends at the start of the lunch break: no afternoon.
        let eve = session("XHKG", "2024-12-24")
        #expect(eve?.close == at("2024-12-24T04:00:00Z"))
        #expect(eve?.breakStart == nil && eve?.breakEnd == nil)
        #expect(session("XLON", "2024-12-24")?.close == at("2024-12-24T12:30:00Z"))
    }

    /// Issue 26: the markets page's early close, at instants given (never the real time): the
    /// day after Thanksgiving 2026 the NYSE closes at 13:00 New York time (18:00 UTC), said
    /// before the session, during it, and from the evening before the holiday that precedes it.
    @Test func theEarlyCloseOfTheSessionUnderWayOrNext() throws {
        let nyse = try #require(markets.calendar(for: MarketIdentifier("XNYS")))
        let close = at("2026-11-27T18:00:00Z")
        #expect(nyse.earlyClose(at: at("2026-11-27T15:00:00Z")) == close, "open, closing early")
        #expect(nyse.earlyClose(at: at("2026-11-27T12:00:00Z")) == close, "before the open: the next session's")
        #expect(nyse.earlyClose(at: at("2026-11-25T22:00:00Z")) == close, "Wednesday evening: Thursday is Thanksgiving")
        #expect(nyse.earlyClose(at: at("2026-11-27T18:30:00Z")) == nil, "closed: Monday's session closes at 16:00")
        #expect(nyse.earlyClose(at: at("2026-11-24T15:00:00Z")) == nil, "a regular Tuesday")
        #expect(markets.calendar(for: .crypto)?.earlyClose(at: at("2026-11-27T15:00:00Z")) == nil, "24/7 never closes early")
        let session = try #require(nyse.currentOrNextSession(at: at("2026-11-25T22:00:00Z")))
        #expect(session.date == date("2026-11-27") && nyse.closesEarly(session) && !nyse.opensLate(session))

        // What the markets page is given: `ShowMarkets.overview` at the daemon's clock.
        let overview = ShowMarkets.overview(markets, now: at("2026-11-27T15:00:00Z"))
        let row = try #require(overview.first { $0.market == MarketIdentifier("XNYS") })
        #expect(row.status == .open(until: close) && row.earlyClose == close)
        #expect(overview.first { $0.market == MarketIdentifier("XLON") }?.earlyClose == nil, "London closes at its hour")
        // `pricewatch market XNYS` marks the same day.
        let days = ShowMarkets.days(of: nyse, from: date("2026-11-23"), through: date("2026-11-27"))
        #expect(days.map(\.isEarlyClose) == [false, false, false, false, true])
    }

    @Test func cmeGlobexOpensTheEveningBefore() {
        let globex = MarketIdentifier("CMES")
        // Sunday 17:00 Chicago (CST) opens Monday's session.
        #expect(markets.status(of: globex, at: at("2024-12-01T22:00:00Z")) == .closed(until: at("2024-12-01T23:00:00Z")))
        #expect(markets.status(of: globex, at: at("2024-12-01T23:30:00Z")) == .open(until: at("2024-12-02T23:00:00Z")))
        #expect(markets.status(of: globex, at: at("2024-12-02T23:00:00Z")) == .open(until: at("2024-12-03T23:00:00Z")))
    }

    @Test func pseudoMarketsAndUnknownMarkets() {
        // Issue 30, item 4: crypto never closes; its sessions meet at midnight, which is no close.
        for instant in ["2024-12-01T12:00:00Z", "2024-12-01T23:59:59Z", "2024-12-02T00:00:00Z", "2024-02-29T00:00:00Z"] {
            #expect(markets.status(of: .crypto, at: at(instant)) == .open(until: Timestamp(milliseconds: .max)), "\(instant)")
        }
        #expect(markets.status(of: .currencies, at: at("2024-11-30T12:00:00Z")) == .closed(until: at("2024-12-02T00:00:00Z")))
        #expect(markets.status(of: MarketIdentifier("XXXX"), at: at("2024-11-30T12:00:00Z")) == .open(until: Timestamp(milliseconds: .max)))
        #expect(markets.timeZone(of: MarketIdentifier("xnas")) == "America/New_York")
        #expect(markets.timeZone(of: MarketIdentifier("XXXX")) == nil)
    }

    @Test func noCalendarsMeansAlwaysOpenWithAWarning() {
        let (empty, diagnostics) = CalendarLibrary.load(shipped: "/nonexistent/calendars", overrides: nil)
        #expect(empty.markets.isEmpty)
        #expect(diagnostics.count == 1 && diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.message.contains("always open") == true)
        #expect(empty.status(of: MarketIdentifier("XNYS"), at: at("2024-11-30T12:00:00Z")).isOpen)
    }
}
