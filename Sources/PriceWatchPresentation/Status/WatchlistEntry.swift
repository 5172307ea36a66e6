import PriceWatchCore

import FoundationEssentials

/// One watched symbol as `pricewatch watch` shows it: the newest stored price with its change
/// from the previous close and its currency, the day's range and sparkline (from the stored
/// history), whether its market is open and until when, and the state of each of its rules.
///
/// Built from the configuration, the state database and the calendars at a wall time `now`
/// passed in: no I/O, no clock.
public struct WatchlistEntry: Sendable, Hashable {
    /// A rule watching the symbol and its state; a technical rule also its series' values
    /// (or how far its warm-up is).
    public struct RuleState: Sendable, Hashable {
        public var rule: String
        public var state: RuleStatus.State
        public var series: SeriesSnapshot?
        public init(rule: String, state: RuleStatus.State, series: SeriesSnapshot? = nil) {
            self.rule = rule
            self.state = state
            self.series = series
        }

        /// `aapl-above armed`; `goog-cross armed (sma(50) 171.20, sma(200) 170.95)`;
        /// `goog-cross warming up: 37 of 200 bars`.
        public var text: String {
            guard let series else { return "\(rule) \(state.name)" }
            if state == .armed, series.isWarmingUp { return "\(rule) \(series.text)" }
            return "\(rule) \(state.name) (\(series.text))"
        }

        /// `warming up` while a technical rule is, else the state's name.
        public var stateName: String {
            state == .armed && series?.isWarmingUp == true ? "warming up" : state.name
        }
    }

    public var symbol: String
    /// The provider of the symbol's rules (the first rule's).
    public var provider: String?
    /// The newest stored quote of the symbol from that provider.
    public var price: ExactDecimal?
    public var time: Timestamp?
    public var previousClose: ExactDecimal?
    public var currency: String?
    /// The closes of the stored one-minute candles of the price's day (in the market's zone,
    /// else UTC), oldest first; their lows and highs make the day's range.
    public var dayCloses: [ExactDecimal]
    public var dayLow: ExactDecimal?
    public var dayHigh: ExactDecimal?
    /// The symbol's market and its status at `now`; nil when the calendars do not know it.
    public var market: MarketIdentifier?
    public var marketStatus: MarketStatus?
    /// The market's IANA time zone, when the calendars know it (`--tz market`).
    public var marketTimeZone: String?
    public var rules: [RuleState]

    public init(symbol: String, provider: String?, price: ExactDecimal? = nil, time: Timestamp? = nil,
                previousClose: ExactDecimal? = nil, currency: String? = nil, dayCloses: [ExactDecimal] = [],
                dayLow: ExactDecimal? = nil, dayHigh: ExactDecimal? = nil, market: MarketIdentifier? = nil,
                marketStatus: MarketStatus? = nil, rules: [RuleState] = []) {
        self.symbol = symbol
        self.provider = provider
        self.price = price
        self.time = time
        self.previousClose = previousClose
        self.currency = currency
        self.dayCloses = dayCloses
        self.dayLow = dayLow
        self.dayHigh = dayHigh
        self.market = market
        self.marketStatus = marketStatus
        self.rules = rules
    }

    /// The percent change from the previous close, to two places.
    public var change: ExactDecimal? {
        guard let price, let previousClose else { return nil }
        return price.percentChange(from: previousClose, roundedTo: 2)
    }

    public static let header = ["SYMBOL", "PRICE", "CHANGE", "CURRENCY", "DAY_RANGE", "DAY", "MARKET", "TIME", "RULES"]
    /// The columns the text table aligns right.
    public static let rightAligned: Set<Int> = [1, 2]
    /// Characters of the sparkline.
    public static let sparklineWidth = 20

    /// The text row at wall time `now`; times in `zone`.
    public func row(now: Timestamp, zone: TimeZone) -> [String] {
        let range = dayLow.flatMap { low in dayHigh.map { "\(Self.text(low))-\(Self.text($0))" } }
        return [
            symbol, price.map(Self.text) ?? "-", change.map(Self.signed) ?? "-", currency ?? "-", range ?? "-",
            dayCloses.isEmpty ? "-" : Sparkline.render(dayCloses, width: Self.sparklineWidth),
            marketText(now: now), time.map { LocalTimeText.text($0, zone: zone) } ?? "-",
            rules.isEmpty ? "-" : rules.map(\.text).joined(separator: ", "),
        ]
    }

    /// `open, closes in 2h10m`, `closed, opens in 14h5m`, `closed` (no later session known),
    /// `-` (market unknown: treated as always open).
    public func marketText(now: Timestamp) -> String {
        guard let market, let status = marketStatus else { return "-" }
        switch status {
        case .open(let until):
            return until.milliseconds == .max ? "\(market) open" : "\(market) open, closes in \(Self.duration(from: now, to: until))"
        case .closed(let until?):
            return "\(market) closed, opens in \(Self.duration(from: now, to: until))"
        case .closed(nil):
            return "\(market) closed"
        }
    }

    /// One JSON object: `symbol`, `provider`, `price`, `time`, `previous_close`, `change`
    /// (percent), `currency`, `day_low`, `day_high`, `day_closes` (count), `sparkline`,
    /// `market`, `market_state` (`open`, `closed`), `market_next_change`, `rules` (objects of `rule` and
    /// `state`; a technical rule's also `bars`, `bars_needed` and each series' value by its name,
    /// as in `pricewatch rules`); times UTC, null where nothing is known.
    public func jsonLine(now: Timestamp) -> String {
        var json = JSONWriter()
        json.string("symbol", symbol)
        json.string("provider", provider)
        json.number("price", price)
        json.time("time", time)
        json.number("previous_close", previousClose)
        json.number("change", change)
        json.string("currency", currency)
        json.number("day_low", dayLow)
        json.number("day_high", dayHigh)
        json.integer("day_closes", dayCloses.count)
        json.string("sparkline", dayCloses.isEmpty ? nil : Sparkline.render(dayCloses, width: Self.sparklineWidth))
        json.string("market", market?.rawValue)
        let status = market == nil ? nil : marketStatus
        json.string("market_state", status.map { $0.isOpen ? "open" : "closed" })
        json.time("market_next_change", status?.nextKnownChange)
        json.objects("rules", rules.map { rule in
            var object = JSONWriter()
            object.string("rule", rule.rule)
            object.string("state", rule.stateName)
            if let series = rule.series {
                object.integer("bars", series.bars)
                object.integer("bars_needed", series.needed)
                for value in series.values { object.number(value.series, value.value) }
            }
            return object.result
        })
        return json.result
    }

    static func text(_ value: ExactDecimal) -> String { value.formatted(minimumFractionDigits: 2) }

    static func signed(_ percent: ExactDecimal) -> String {
        (percent.isPositive ? "+" : "") + percent.formatted(minimumFractionDigits: 2) + "%"
    }

    /// `45m`, `2h10m`, `3d4h`; `0m` when `to` is not later.
    static func duration(from: Timestamp, to: Timestamp) -> String {
        let minutes = max(0, (to.milliseconds - from.milliseconds) / 60_000)
        if minutes < 60 { return "\(minutes)m" }
        if minutes < 24 * 60 { return "\(minutes / 60)h\(minutes % 60)m" }
        return "\(minutes / 1_440)d\(minutes % 1_440 / 60)h"
    }
}
