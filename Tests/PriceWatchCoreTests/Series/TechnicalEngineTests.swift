import PriceWatchCore
import Testing

/// The engine's technical rules: bar alignment, warm-up, close and tick triggers, closing by
/// time, rebuilding from history, and one computation per series.
@Suite struct TechnicalEngineTests {
    static let t0: Int64 = 1_727_875_800_000 // 2024-10-02T13:30:00Z, a Wednesday

    static func quote(_ price: String, minute: Int64, second: Int64 = 0, symbol: String = "X") throws -> Quote {
        Quote(symbol: symbol, price: try ExactDecimal(parsing: price), time: Timestamp(milliseconds: t0 + minute * 60_000 + second * 1_000))
    }

    static func rule(_ id: String, _ condition: Condition, _ series: SeriesCondition, cooldown: RuleDuration? = nil) -> Rule {
        var rule = Rule(id: id, symbols: ["X"], provider: "p", condition: condition, cooldown: cooldown)
        rule.series = series
        return rule
    }

    static func spec(_ text: String) throws -> SeriesSpec { try SeriesSpec(parsing: text) }

    @Test func barsAlignToUTCToTheSessionOpenAndToMondays() throws {
        let m15 = try #require(Timeframe("15m")), h1 = try #require(Timeframe("1h"))
        let time = Timestamp(milliseconds: Self.t0 + 47 * 60_000) // 14:17
        #expect(m15.barStart(of: time, sessionOpen: nil) == Self.t0 + 45 * 60_000)
        #expect(h1.barStart(of: time, sessionOpen: nil) == Self.t0 + 30 * 60_000) // 14:00 UTC
        #expect(h1.barStart(of: time, sessionOpen: Timestamp(milliseconds: Self.t0)) == Self.t0) // 13:30, the open
        #expect(Timeframe.oneDay.barStart(of: time, sessionOpen: Timestamp(milliseconds: Self.t0)) == Self.t0)
        #expect(Timeframe.oneDay.barStart(of: time, sessionOpen: nil) == Self.t0 - 13 * 3_600_000 - 30 * 60_000)
        // 2024-10-02 is a Wednesday: its week began on Monday 2024-09-30.
        #expect(Timeframe.oneWeek.barStart(of: time, sessionOpen: nil) == 1_727_654_400_000)
        #expect(Timeframe.names == ["1m", "5m", "15m", "30m", "1h", "2h", "4h", "1d", "1w"])
        #expect(Timeframe("1D") == nil && Timeframe("") == nil)
    }

    @Test func aRuleWaitsForEverySeriesItNamesAndFiresOnBarCloses() throws {
        let rule = Self.rule("above-sma", .above(.zero), SeriesCondition(timeframe: try #require(Timeframe("1m")), level: try Self.spec("sma(3)")))
        var engine = AlertEngine(book: RuleBook(rules: [rule]))
        var fired: [String] = []
        // A rising price is above its average from the start, but sma(3) needs three bars.
        for (minute, price) in ["10", "11", "12", "13", "14"].enumerated() {
            let outcome = engine.process(try Self.quote(price, minute: Int64(minute)), source: 0, provider: "p", now: nil)
            fired += outcome.alerts.map { "\($0.alert.time.rfc3339) \($0.alert.price)" }
        }
        // Bars 10, 11 are warming up; bar 12 closes (at the quote of 13) at 12 >= sma 11: fires.
        #expect(fired == ["2024-10-02T13:32:00Z 12"])
        #expect(engine.barState(ofTrack: 0).closedBars == 4)
        #expect(engine.barState(ofTrack: 0).formingQuote?.price == (try ExactDecimal(parsing: "14")))
    }

    @Test func aTickRuleFiresWithinTheFormingBar() throws {
        let m5 = try #require(Timeframe("5m"))
        let tick = Self.rule("tick", .crosses(try ExactDecimal(parsing: "100")), SeriesCondition(timeframe: m5, trigger: .tick))
        let close = Self.rule("close", .crosses(try ExactDecimal(parsing: "100")), SeriesCondition(timeframe: m5))
        var engine = AlertEngine(book: RuleBook(rules: [tick, close]))
        var fired: [String] = []
        for (minute, price) in [(0, "99"), (1, "101"), (5, "102"), (10, "98"), (11, "97")] {
            let outcome = engine.process(try Self.quote(price, minute: Int64(minute)), source: 0, provider: "p", now: nil)
            fired += outcome.alerts.map { "\($0.alert.rule) \($0.alert.time.rfc3339)" }
        }
        // The tick rule sees 99 then 101 inside the first bar; the close rule sees the bars'
        // closes 101 (first), 102, and only a later bar's quote closes the 98 bar.
        #expect(fired == ["tick 2024-10-02T13:31:00Z", "tick 2024-10-02T13:40:00Z"])
        #expect(engine.book.tracks.count == 1, "both rules share one 5m track of X")
        #expect(engine.book.tracks[0].series == [.price])
    }

    @Test func barsCloseByTimeOnlyOnceTheSourceStoppedQuoting() throws {
        let rule = Self.rule("above", .above(try ExactDecimal(parsing: "100")), SeriesCondition(timeframe: try #require(Timeframe("1m"))))
        var engine = AlertEngine(book: RuleBook(rules: [rule]))
        let now = Timestamp(milliseconds: Self.t0 + 10 * 60_000)
        _ = engine.process(try Self.quote("101", minute: 0, second: 30), source: 0, provider: "p", now: now)
        // Received just now: a source still quoting closes its bars by its quotes.
        #expect(engine.closeBars(now: now, graceMilliseconds: { _ in 5_000 }, provider: { _ in "p" }).alerts.isEmpty)
        let later = Timestamp(milliseconds: now.milliseconds + 5_000)
        let outcome = engine.closeBars(now: later, graceMilliseconds: { _ in 5_000 }, provider: { _ in "p" })
        #expect(outcome.alerts.map(\.alert.time.rfc3339) == ["2024-10-02T13:30:30Z"])
        #expect(outcome.alerts.first?.alert.provider == "p")
        #expect(engine.barState(ofTrack: 0).formingStart == nil)
    }

    @Test func aTrackRebuiltFromHistoryKeepsItsLiveBarAndEvaluatesNothing() throws {
        let rule = Self.rule("cross", .crosses(.zero), SeriesCondition(timeframe: try #require(Timeframe("1m")),
                                                                        of: try Self.spec("sma(2)"), level: try Self.spec("sma(4)")))
        var engine = AlertEngine(book: RuleBook(rules: [rule]), trackChanges: true)
        _ = engine.process(try Self.quote("50", minute: 10), source: 0, provider: "p", now: nil)
        let history = (0..<8).map { minute in
            BarHistory.Bar(start: Self.t0 + Int64(minute) * 60_000, time: Timestamp(milliseconds: Self.t0 + Int64(minute) * 60_000),
                           close: ExactDecimal(exactly: 100 + minute) ?? .zero)
        }
        engine.rebuildTrack(0, from: history)
        #expect(engine.barState(ofTrack: 0).closedBars == 8)
        #expect(engine.barState(ofTrack: 0).formingQuote?.price == ExactDecimal(exactly: 50))
        #expect(engine.drainChangedStates().isEmpty, "history must not be evaluated")
        // The live bar of 50 closes: sma(2) 78.5 < sma(4) 90.75, the first side, recorded only.
        let outcome = engine.process(try Self.quote("200", minute: 11), source: 0, provider: "p", now: nil)
        #expect(outcome.alerts.isEmpty && outcome.barEvaluations == 1)
        #expect(engine.state(ofSlot: 0).side == .down)
    }

    @Test func oneComputationServesEveryRuleOnTheSameSeries() throws {
        let d1 = Timeframe.oneDay
        let rules = try (0..<1_000).map { index in
            Self.rule("r\(index)", .crosses(.zero), SeriesCondition(timeframe: d1, of: try Self.spec("sma(50)"), level: try Self.spec("sma(200)")))
        } + [Self.rule("rsi", .below(ExactDecimal(exactly: 30) ?? .zero), SeriesCondition(timeframe: d1, of: try Self.spec("rsi(14)")))]
        let book = RuleBook(rules: rules)
        #expect(book.tracks.count == 1)
        #expect(book.tracks[0].series.map(\.description) == ["sma(50)", "sma(200)", "rsi(14)"])
        #expect(book.tracks[0].warmUpBars == 200)
        #expect(book.slotCount(ofSource: 0) == 0, "technical rules are not evaluated quote by quote")
    }

    @Test func seriesTextsAreCheckedAndCanonical() throws {
        #expect(try Self.spec(" bb_upper( 20 , 2 ) ").description == "bb_upper(20,2)")
        #expect(try Self.spec("bb_lower(10,2.5)").description == "bb_lower(10,2.5)")
        #expect(try Self.spec("sma(50)") == (try Self.spec("sma( 50)")))
        func message(_ text: String) -> String? {
            do { _ = try SeriesSpec(parsing: text); return nil } catch { return error.description }
        }
        #expect(message("emaa(20)")?.hasSuffix("did you mean 'ema'?") == true)
        #expect(message("price(3)") == "price takes no arguments, found 1")
        #expect(message("sma(x)") == "expected numbers as the arguments of 'sma', found \"x\"")
        #expect(message("sma(6000)") == "sma's length must be between 1 and 5000, found 6000")
        #expect(message("bb_upper(20,20)") == "bb_upper's multiplier must be between 0.1 and 10, found 20")
        #expect(message("sma(50") == "expected a series such as \"sma(50)\" with its arguments in parentheses, found \"sma(50\" (no closing parenthesis)")
        #expect(message("zzzzzz")?.contains("known series: price, sma, ema") == true)
    }

    @Test func candlesGroupIntoBarsAsQuotesDo() throws {
        let candles = try (0..<10).map { minute in
            Candle(time: Timestamp(milliseconds: Self.t0 + Int64(minute) * 60_000), interval: .oneMinute,
                   open: try ExactDecimal(parsing: "1"), high: try ExactDecimal(parsing: "1"), low: try ExactDecimal(parsing: "1"),
                   close: ExactDecimal(exactly: minute + 1) ?? .zero, volume: ExactDecimal(exactly: 2))
        }
        let bars = BarHistory.bars(from: candles, timeframe: try #require(Timeframe("5m")), limit: 10)
        #expect(bars.map(\.close) == [ExactDecimal(exactly: 5), ExactDecimal(exactly: 10)])
        #expect(bars.map(\.volume) == [ExactDecimal(exactly: 10), ExactDecimal(exactly: 10)])
        #expect(BarHistory.bars(from: candles, timeframe: try #require(Timeframe("5m")), limit: 1).count == 1)
        // Outside every session of a known exchange: in no bar.
        #expect(BarHistory.bars(from: candles, timeframe: .oneDay, limit: 10) { _ in .outsideSession }.isEmpty)
        #expect(BarHistory.candleInterval(for: try #require(Timeframe("15m"))) == .fiveMinutes)
        #expect(BarHistory.candleInterval(for: .oneWeek) == .oneDay)
    }

    @Test func liveBarsTakeTheirVolumeFromTheGrowthOfTheDaysVolume() throws {
        let rule = Self.rule("volume-spike", .above(.zero),
                             SeriesCondition(timeframe: try #require(Timeframe("1m")), of: try Self.spec("volume"),
                                             level: try Self.spec("sma_volume(2)")))
        var engine = AlertEngine(book: RuleBook(rules: [rule]))
        var volumes: [Double?] = [], averages: [Double?] = [], fired: [String] = []
        // (second, the day's running volume): the first bar's share is unknown (no quote
        // before it), the total falls at 04:00 (a new day), and a quote without one leaves
        // its bar's volume unknown.
        let quotes: [(Int64, String?)] = [(0, "1000"), (30, "1100"), (60, "1200"), (90, "1250"), (120, "1300"), (180, "1400"),
                                          (240, "100"), (300, "700"), (330, nil), (360, "800"), (420, "900")]
        for (second, dayVolume) in quotes {
            var quote = try Self.quote("10", minute: 0, second: second)
            quote.dayVolume = try dayVolume.map { try ExactDecimal(parsing: $0) }
            let closedBefore = engine.barState(ofTrack: 0).closedBars
            let outcome = engine.process(quote, source: 0, provider: "p", now: nil)
            fired += outcome.alerts.map { "\($0.alert.time.rfc3339) \($0.alert.series?.ofValue.description ?? "-")" }
            guard engine.barState(ofTrack: 0).closedBars > closedBefore else { continue }
            volumes.append(engine.barState(ofTrack: 0).values[0])
            averages.append(engine.barState(ofTrack: 0).values[1])
        }
        // Bars 13:30 (unknown: no quote before it), 13:31 (100 + 50), 13:32 (50: the growth up
        // to 14:00's quote belongs to the next bar), 13:33 (100), 13:34 (100 after the reset),
        // 13:35 (unknown: a quote without a volume), 13:36 (unknown: no share before it).
        #expect(volumes == [nil, 150, 50, 100, 100, nil, nil], "\(volumes)")
        // An unknown volume is not an input: the average skips it.
        #expect(averages == [nil, nil, 100, 75, 100, nil, nil], "\(averages)")
        // 50 >= 100 is false; 100 >= 75 fires at 13:33 (its last quote), 100 >= 100 stays fired.
        #expect(fired == ["2024-10-02T13:33:00Z 100"], "\(fired)")
    }
}
