import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Portfolio rules evaluated from the quote stream: figures from complete valuations only,
/// the price rules' firing semantics, currency pairs as rates, market-aware staleness.
@Suite struct PortfolioRuleEngineTests {
    static func decimal(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(text) else { preconditionFailure("bad decimal literal \(text) in a test") }
        return value
    }

    static let day: CivilDate = {
        guard let date = CivilDate(year: 2024, month: 1, day: 2) else { preconditionFailure("bad date in a test") }
        return date
    }()

    /// EUR home; 10 AAPL bought at 150 USD with 5 USD fees; 1000 EUR cash.
    static let portfolio = Portfolio(name: "retirement", currency: "EUR", cash: ["EUR": decimal("1000")], lots: [
        PortfolioLot(symbol: "AAPL", quantity: decimal("10"), price: decimal("150"), currency: "USD",
                     date: Self.day, fees: decimal("5")),
    ])

    static func rule(_ id: String, _ measure: PortfolioTarget.Measure, _ condition: Condition, position: String? = nil,
                     rearm: String = "0") -> Rule {
        let target = PortfolioTarget(portfolio: "retirement", measure: measure, position: position)
        var rule = Rule(id: id, symbols: [target.subject], provider: "feed", condition: condition, rearm: decimal(rearm), notify: ["out"])
        rule.portfolio = target
        return rule
    }

    static func quote(_ symbol: String, _ price: String, at seconds: Int64, previousClose: String? = nil, currency: String = "USD") -> Quote {
        Quote(symbol: symbol, price: decimal(price), time: Timestamp(seconds: seconds), previousClose: previousClose.map(decimal), currency: currency)
    }

    /// Everything always open: freshness by age alone (15 minutes).
    static let freshness = PriceFreshness(staleAfterMilliseconds: 900_000, hours: AlwaysOpenMarkets())

    @Test func theWatchlistHoldsTheHoldingsAndOnePairPerForeignCurrency() {
        var portfolio = Self.portfolio
        portfolio.cash["GBP"] = Self.decimal("10")
        portfolio.lots.append(PortfolioLot(symbol: "SAP.DE", quantity: Self.decimal("2"), price: Self.decimal("100"), currency: "EUR",
                                           date: Self.day, fees: .zero))
        portfolio.lots.append(PortfolioLot(symbol: "SOLD", quantity: Self.decimal("1"), price: Self.decimal("1"), currency: "CHF",
                                           date: Self.day, fees: .zero))
        portfolio.lots.append(PortfolioLot(symbol: "SOLD", quantity: Self.decimal("-1"), price: Self.decimal("1"), currency: "CHF",
                                           date: Self.day, fees: .zero))
        #expect(PortfolioWatchlist.symbols(of: portfolio) == ["AAPL", "SAP.DE", "USDEUR=X", "GBPEUR=X"])
    }

    @Test func currencyPairSymbolsReadOnlyTheirOwnForm() {
        #expect(CurrencyPairSymbol(symbol: "EURUSD=X") == CurrencyPairSymbol(base: "EUR", quote: "USD"))
        #expect(CurrencyPairSymbol(base: "USD", quote: "EUR").symbol == "USDEUR=X")
        for other in ["AAPL", "EURUSD", "eurusd=X", "EUREUR=X", "EURUSDX=X", "BTC-USD", "ÉURUSD=X"] {
            #expect(CurrencyPairSymbol(symbol: other) == nil, "\(other)")
        }
    }

    @Test func aValueRuleFiresOnceAtTheCrossingInTheHomeCurrencyAndRearms() {
        var engine = PortfolioRuleEngine(rules: [Self.rule("below-2300", .value, .below(Self.decimal("2300")), rearm: "1")],
                                         portfolios: [Self.portfolio])
        #expect(engine.needs("AAPL") && engine.needs("USDEUR=X") && !engine.needs("MSFT"))
        // 10 × 150 USD × 0.9 = 1350 EUR + 1000 EUR cash = 2350 EUR: above the level.
        engine.record(Self.quote("AAPL", "150", at: 1000), provider: "feed")
        engine.record(Self.quote("USDEUR=X", "0.9", at: 1000, currency: "EUR"), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty)
        // 140 USD: 1260 + 1000 = 2260 EUR.
        engine.record(Self.quote("AAPL", "140", at: 1060), provider: "feed")
        let fired = engine.evaluate(freshness: Self.freshness).alerts
        #expect(fired.map(\.alert.price) == [Self.decimal("2260")])
        #expect(fired.first?.alert.symbol == "@retirement:value")
        #expect(fired.first?.alert.currency == "EUR")
        #expect(fired.first?.alert.condition == "value below 2300")
        #expect(fired.first?.alert.time == Timestamp(seconds: 1060))
        #expect(fired.first?.sinks == ["out"])
        // Still below, then back within the 1% band (2300 + 23): no alert, not re-armed.
        engine.record(Self.quote("AAPL", "139", at: 1120), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty)
        engine.record(Self.quote("AAPL", "146", at: 1180), provider: "feed") // 2314 EUR
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty)
        engine.record(Self.quote("AAPL", "139", at: 1240), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty, "within the band: still fired")
        engine.record(Self.quote("AAPL", "150", at: 1300), provider: "feed") // 2350: cleared
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty)
        engine.record(Self.quote("AAPL", "139", at: 1360), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.count == 1, "re-armed: fires again")
    }

    @Test func aLossRuleWorksBelowZeroWithItsBandOnTheRightSide() {
        // Cost 1505 USD. Profit in EUR at rate 1: value − cost.
        var engine = PortfolioRuleEngine(rules: [Self.rule("loss", .profit, .below(Self.decimal("-100")), rearm: "10")],
                                         portfolios: [Self.portfolio])
        engine.record(Self.quote("USDEUR=X", "1", at: 0, currency: "EUR"), provider: "feed")
        engine.record(Self.quote("AAPL", "150", at: 0), provider: "feed") // −5
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty)
        engine.record(Self.quote("AAPL", "140", at: 60), provider: "feed") // −105
        let fired = engine.evaluate(freshness: Self.freshness).alerts
        #expect(fired.map(\.alert.price) == [Self.decimal("-105")])
        // Cleared only above −100 + 10 = −90: −95 keeps it fired.
        engine.record(Self.quote("AAPL", "141", at: 120), provider: "feed") // −95
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty)
        engine.record(Self.quote("AAPL", "140", at: 180), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.isEmpty, "−95 did not clear it")
        engine.record(Self.quote("AAPL", "142", at: 240), provider: "feed") // −85: cleared
        _ = engine.evaluate(freshness: Self.freshness)
        engine.record(Self.quote("AAPL", "140", at: 300), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.count == 1)
    }

    @Test func percentAndPositionFiguresAreExact() throws {
        let rules = [
            Self.rule("profit-pct", .profitPercent, .above(Self.decimal("10"))),
            Self.rule("day", .dayChangePercent, .below(Self.decimal("-2"))),
            Self.rule("aapl-pnl", .positionProfitPercent, .above(Self.decimal("10")), position: "AAPL"),
            Self.rule("aapl-weight", .positionWeight, .above(Self.decimal("60")), position: "AAPL"),
        ]
        var engine = PortfolioRuleEngine(rules: rules, portfolios: [Self.portfolio])
        engine.record(Self.quote("USDEUR=X", "1", at: 0, currency: "EUR"), provider: "feed")
        // 170 USD (prev close 175): value 1700, cost 1505 → +12.956810631...%; day −50 of 1750 = −2.857142857%;
        // weight 1700 / 2700 = 62.96296296%.
        engine.record(Self.quote("AAPL", "170", at: 60, previousClose: "175"), provider: "feed")
        let alerts = engine.evaluate(freshness: Self.freshness).alerts.map(\.alert)
        #expect(alerts.map(\.rule) == ["profit-pct", "day", "aapl-pnl", "aapl-weight"])
        #expect(alerts.map(\.price) == ["12.95681063", "-2.85714286", "12.95681063", "62.96296296"].map(Self.decimal))
        #expect(alerts.map(\.symbol) == ["@retirement:profit_percent", "@retirement:day_change_percent",
                                           "@retirement/AAPL:position_profit_percent", "@retirement/AAPL:position_weight"])
        #expect(alerts.allSatisfy { $0.currency == nil })
        #expect(alerts.map(\.condition) == ["profit % above 10", "day change % below -2", "AAPL profit % above 10", "AAPL weight % above 60"])
    }

    @Test func aPortfolioMissingAPriceOrARateIsNotEvaluatedAndSaysWhy() {
        var engine = PortfolioRuleEngine(rules: [Self.rule("low", .value, .below(Self.decimal("100000")))], portfolios: [Self.portfolio])
        engine.record(Self.quote("AAPL", "150", at: 0), provider: "feed")
        let first = engine.evaluate(freshness: Self.freshness)
        #expect(first.alerts.isEmpty, "cash alone is below the level, but the holding has no rate: nothing is evaluated")
        #expect(first.changes.map(\.portfolio) == ["retirement"])
        #expect(first.changes.first?.reason == "AAPL: no rate from USD to EUR")
        engine.record(Self.quote("USDEUR=X", "0.9", at: 30, currency: "EUR"), provider: "feed")
        let second = engine.evaluate(freshness: Self.freshness)
        #expect(second.alerts.count == 1)
        #expect(second.changes.count == 1 && second.changes.first?.reason == nil, "one line when it resumes")
        #expect(second.alerts.first?.alert.time == Timestamp(seconds: 30), "the figure's time is its newest input")
    }

    @Test func aStalePriceStopsEvaluationUntilAFreshOneComes() {
        var engine = PortfolioRuleEngine(rules: [Self.rule("low", .value, .below(Self.decimal("3000")))], portfolios: [Self.portfolio])
        engine.record(Self.quote("USDEUR=X", "1", at: 0, currency: "EUR"), provider: "feed")
        engine.record(Self.quote("AAPL", "150", at: 0), provider: "feed")
        // A rate update at 20 minutes: the AAPL price is 20 minutes old and its market (unknown) trades around the clock.
        engine.record(Self.quote("USDEUR=X", "0.99", at: 1200, currency: "EUR"), provider: "feed")
        let outcome = engine.evaluate(freshness: Self.freshness)
        #expect(outcome.alerts.isEmpty)
        #expect(outcome.changes.first?.reason?.hasPrefix("AAPL: stale price of 1970-01-01T00:00:00Z") == true)
    }

    /// Friday's New York close is fresh all weekend and until 15 minutes into Monday's session.
    @Test func freshnessKnowsMarketHours() throws {
        let hours = WeeklyMarketHours.sample(symbols: ["AAPL": MarketIdentifier("XNYS"), "SAP.DE": MarketIdentifier("XETR")])
        let freshness = PriceFreshness(staleAfterMilliseconds: 900_000, hours: hours)
        // Friday 2024-10-04 16:00 New York (20:00 UTC) is the close.
        let close = try #require(Timestamp(parsing: "2024-10-04T20:00:00Z"))
        let saturday = try #require(Timestamp(parsing: "2024-10-05T12:00:00Z"))
        let mondayOpen = try #require(Timestamp(parsing: "2024-10-07T13:30:00Z"))
        #expect(!freshness.isStale(symbol: "AAPL", time: close, now: saturday))
        #expect(!freshness.isStale(symbol: "AAPL", time: close, now: Timestamp(milliseconds: mondayOpen.milliseconds + 900_000)))
        #expect(freshness.isStale(symbol: "AAPL", time: close, now: Timestamp(milliseconds: mondayOpen.milliseconds + 900_001)))
        // A price from mid-session, 20 minutes later while the market still trades: stale.
        let midday = try #require(Timestamp(parsing: "2024-10-04T16:00:00Z"))
        #expect(freshness.isStale(symbol: "AAPL", time: midday, now: Timestamp(milliseconds: midday.milliseconds + 1_200_000)))
        // Xetra's close (17:30 Berlin, 15:30 UTC) stays fresh through New York's afternoon.
        let xetraClose = try #require(Timestamp(parsing: "2024-10-04T15:30:00Z"))
        #expect(!freshness.isStale(symbol: "SAP.DE", time: xetraClose, now: try #require(Timestamp(parsing: "2024-10-04T19:59:00Z"))))
        // A symbol on no known market trades around the clock.
        #expect(freshness.isStale(symbol: "BTC-USD", time: close, now: Timestamp(milliseconds: close.milliseconds + 900_001)))
        #expect(!freshness.isStale(symbol: "BTC-USD", time: close, now: Timestamp(milliseconds: close.milliseconds + 900_000)))
    }

    @Test func aReloadKeepsPricesAndRatesAndTheStoredStateKeepsAFiredRuleFired() {
        let rules = [Self.rule("low", .value, .below(Self.decimal("3000")))]
        var engine = PortfolioRuleEngine(rules: rules, portfolios: [Self.portfolio])
        engine.record(Self.quote("USDEUR=X", "1", at: 0, currency: "EUR"), provider: "feed")
        engine.record(Self.quote("AAPL", "150", at: 0), provider: "feed")
        #expect(engine.evaluate(freshness: Self.freshness).alerts.count == 1)
        let states = engine.drainChangedStates()
        #expect(states[RuleStateKey(rule: "low", symbol: "@retirement:value")]?.state.phase == .fired)
        var reloaded = PortfolioRuleEngine(rules: rules, portfolios: [Self.portfolio], storedStates: states, carryingOver: engine)
        #expect(reloaded.evaluate(freshness: Self.freshness).alerts.isEmpty, "fired before the reload: stays fired")
        var fresh = PortfolioRuleEngine(rules: rules, portfolios: [Self.portfolio], carryingOver: engine)
        #expect(fresh.evaluate(freshness: Self.freshness).alerts.count == 1,
                "prices and rates carried over: a new rule is evaluated at once")
    }
}
