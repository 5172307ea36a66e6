import Logging
import PriceWatchCore

/// Makes the digest of one `[[digest]]` for one due time from what the daemon has recorded:
/// candles through ``PriceHistoryReader``, the alert log, the markets' state, and (when the
/// digest asks for charts and a renderer is given) a PNG chart per top mover. The daemon's
/// digest job and `pricewatch digest` build digests alike through it.
public struct DigestBuilder: Sendable {
    /// How far before the period candles are read, so that the last close before it is found
    /// across a weekend or a run of holidays.
    public static let lookBack: Int64 = 10 * 86_400_000

    let history: any PriceHistoryReader
    let alerts: any AlertLogStore
    let marketHours: any MarketHours
    let renderer: (any ChartRenderer)?
    let sections: [any DigestSection]
    let logger: Logger

    /// - Parameters:
    ///   - renderer: draws the charts; nil: digests carry none.
    ///   - sections: what other features add (paper accounts), in this order; one that fails
    ///     is left out (logged), never the digest.
    public init(history: any PriceHistoryReader, alerts: any AlertLogStore, marketHours: any MarketHours,
                renderer: (any ChartRenderer)?, sections: [any DigestSection] = [], logger: Logger) {
        self.history = history
        self.alerts = alerts
        self.marketHours = marketHours
        self.renderer = renderer
        self.sections = sections
        self.logger = logger
    }

    /// The candles a period is measured in: five minutes for a day, an hour for a week or a
    /// month (a chart of 170 to 750 points; movers to the candle).
    public static func interval(for period: DigestPeriod) -> CandleInterval {
        period == .day ? .fiveMinutes : .oneHour
    }

    /// Why a digest could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The digest `settings` describe, due at `due`, over `symbols` (the watched ones); a top
    /// mover's chart also draws the series its technical `rules` name (`sma(50)` over the
    /// prices, `rsi(14)` in a panel). Throws when the history or the alert log cannot be read;
    /// a chart that cannot be drawn is left out (logged), never the digest.
    public func digest(_ settings: DigestSettings, symbols: [String], due: Timestamp, rules: [Rule] = []) async throws -> Digest {
        let composer = DigestComposer(name: settings.name, period: settings.period, timeZone: settings.timeZone,
                                      topCount: settings.topCount, markets: settings.markets)
        guard let window = composer.window(due: due) else {
            throw Failure(description: "digest '\(settings.name)': no \(settings.period.rawValue) ends at \(due.rfc3339) in \(settings.timeZone)")
        }
        let interval = Self.interval(for: settings.period)
        var candles: [String: [Candle]] = [:]
        for symbol in symbols.sorted() {
            candles[symbol] = try await history.candles(
                symbol: symbol, interval: interval,
                from: Timestamp(milliseconds: window.lowerBound.milliseconds - Self.lookBack), to: window.upperBound)
        }
        let log = try await alerts.alerts(since: window.lowerBound)
        let movers = TopMovers(candles: candles, period: window, count: settings.topCount)
        var charts: [DigestChart] = []
        if settings.charts, let renderer {
            for var description in composer.chartDescriptions(movers: movers, window: window, candles: candles)
            where description.series.count >= 2 {
                let lines = await seriesLines(of: description.title, rules: rules, window: window, interval: interval)
                description.overlays = lines.overlays
                description.panels = lines.panels
                description.height += 100 * lines.panels.count
                do {
                    charts.append(DigestChart(symbol: description.title, png: try await renderer.render(description, as: .png)))
                } catch {
                    logger.warning("digest '\(settings.name)': no chart of \(description.title): \(error)")
                }
            }
        }
        var added: [DigestSectionContent] = []
        for section in sections {
            do {
                if let content = try await section.content(for: window, settings: settings) { added.append(content) }
            } catch {
                logger.warning("digest '\(settings.name)': a section was left out: \(error)")
            }
        }
        return composer.compose(due: due, window: window, candles: candles, alerts: log, marketHours: marketHours,
                                sections: added, charts: charts)
    }

    /// The series of `symbol`'s technical rules over `window`, on each rule's own bars (read
    /// with the warm-up before the window, grouped in the symbol's sessions as the daemon
    /// groups them); labelled with the timeframe when it is not the chart's candles'.
    func seriesLines(of symbol: String, rules: [Rule], window: Range<Timestamp>, interval: CandleInterval) async -> SeriesChartLines {
        var lines = SeriesChartLines()
        for rule in rules where rule.symbols.contains(symbol) {
            guard let series = rule.series else { continue }
            let from = Timestamp(milliseconds: window.lowerBound.milliseconds
                                    &- BarHistory.lookBack(bars: series.warmUpBars + 1, timeframe: series.timeframe))
            guard let candles = try? await history.candles(symbol: symbol, interval: BarHistory.candleInterval(for: series.timeframe),
                                                           from: from, to: window.upperBound) else { continue }
            let bars = BarHistory.bars(from: candles, timeframe: series.timeframe, limit: .max,
                                       placement: marketHours.barPlacement(ofSymbol: symbol, market: rule.market))
            let number = series.level == nil && !rule.condition.isPercent ? rule.condition.value.doubleValue : nil
            lines = lines.merged(with: SeriesChartLines(
                specs: series.series, bars: bars, shownFrom: window.lowerBound,
                ruleLevel: number.map { (series.of.description, $0) },
                suffix: series.timeframe.seconds == interval.seconds ? "" : " \(series.timeframe)"))
        }
        return lines
    }
}
