/// Makes a ``Digest`` from what was read for it: pure, so the digest job, `pricewatch digest
/// --preview` and the tests build it alike. Reading (candles through ``PriceHistoryReader``,
/// alerts through ``AlertLogStore``, sections) happens before, in the caller.
public struct DigestComposer: Sendable {
    public var name: String
    public var period: DigestPeriod
    public var timeZone: String
    /// How many gainers and how many losers.
    public var topCount: Int
    /// The markets whose state the digest shows.
    public var markets: [MarketIdentifier]

    public init(name: String, period: DigestPeriod, timeZone: String, topCount: Int = 5, markets: [MarketIdentifier] = []) {
        self.name = name
        self.period = period
        self.timeZone = timeZone
        self.topCount = topCount
        self.markets = markets
    }

    /// The window of the digest due at `due`; `nil` when the time zone is unknown (the
    /// configuration loader rejects such a digest before it gets here).
    public func window(due: Timestamp) -> Range<Timestamp>? {
        period.window(endingAt: due, timeZone: timeZone)
    }

    /// The digest due at `due` over `candles` (per watched symbol, the period and the candle
    /// before it) and `alerts` (the log; only the period's are kept).
    public func compose(due: Timestamp, window: Range<Timestamp>, candles: [String: [Candle]], alerts: [AlertRecord],
                        marketHours: any MarketHours, sections: [DigestSectionContent] = [], charts: [DigestChart] = []) -> Digest {
        Digest(name: name, period: period, window: window, timeZone: timeZone,
               movers: TopMovers(candles: candles, period: window, count: topCount),
               alerts: alerts.filter { window.contains($0.alert.time) }.sorted { $0.alert.time < $1.alert.time },
               markets: markets.map { DigestMarketState(market: $0, status: marketHours.status(of: $0, at: due)) },
               sections: sections, charts: charts)
    }

    /// What to draw for the digest's charts: each top mover's candles over the window (closes),
    /// gainers first, in `timeZone` and `theme`. The caller renders them with a
    /// ``ChartRenderer`` and passes the PNGs to ``compose(due:window:candles:alerts:marketHours:sections:charts:)``.
    public func chartDescriptions(movers: TopMovers, window: Range<Timestamp>, candles: [String: [Candle]],
                                  theme: ChartTheme = .light) -> [ChartDescription] {
        (movers.gainers + movers.losers).map { mover in
            let series = (candles[mover.symbol] ?? []).filter { window.contains($0.time) }.sorted { $0.time < $1.time }
                .map { ChartPoint(time: $0.time, price: $0.close) }
            return ChartDescription(title: mover.symbol, series: series,
                                    levels: [ChartLevel(role: .previousClose, price: mover.from, label: "start")],
                                    timeZone: timeZone, theme: theme)
        }
    }
}
