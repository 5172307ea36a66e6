import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchStore

/// `pricewatch history`: a symbol's candles over a range, from the daemon's stored history,
/// backfilled from the provider's chart endpoint where the stored history does not reach back
/// to the start of the range. The state database is only read; backfilled candles are shown,
/// not stored.
public enum ReadPriceHistory {
    /// Where the candles came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        case stored
        /// Every candle from the provider's chart endpoint.
        case provider(String)
        /// Stored candles, and the provider's before the first stored one.
        case storedAndProvider(String)

        public var description: String {
            switch self {
            case .stored: "stored history"
            case .provider(let name): "backfilled from provider '\(name)'"
            case .storedAndProvider(let name): "stored history, backfilled from provider '\(name)' before it"
            }
        }
    }

    /// What the command prints.
    public struct History: Sendable {
        public var symbol: String
        public var interval: CandleInterval
        public var from: Timestamp
        public var to: Timestamp
        public var candles: [Candle]
        public var source: Source
        public var currency: String?
        /// The close before the range (the provider's, else the last close of the day before
        /// the newest day from the candles themselves).
        public var previousClose: ExactDecimal?
        /// The provider's close before its first candle, when the provider's candles start the
        /// range: the first day's previous close in CSV.
        public var closeBeforeRange: ExactDecimal?
        /// The previous closes the stored quotes of the range carried, oldest first: each stored
        /// candle's previous close in CSV.
        public var quotedPreviousCloses: [QuotedPreviousClose] = []
        /// The symbol's market time zone (from `MarketHours`, else the provider), nil if unknown.
        public var marketTimeZone: String?
        /// The price thresholds of the rules that watch the symbol (`above`, `below`, `crosses`).
        public var thresholds: [TerminalChart.Level]
        /// The series the symbol's technical rules name, over the range (computed on their
        /// timeframe's bars, warmed up from the history before the range): drawn over the
        /// prices, oscillators in panels under them.
        public var seriesLines = SeriesChartLines()
        /// Why the provider could not backfill, when it was asked and failed (the stored
        /// candles are shown anyway).
        public var backfillProblem: String?
        /// The candles the provider's chart endpoint gave (the first of ``candles``), for a
        /// caller that keeps them (the daemon's pages store them; this command does not).
        public var backfilled: [Candle] = []
    }

    public enum Outcome: Sendable {
        case configurationFailed
        case failed(String)
        case read(History)
    }

    /// - Parameters:
    ///   - provider: `--provider`; default the provider of the first rule that watches the
    ///     symbol, else the main file's.
    ///   - marketHours: the trading calendars (the symbol's market time zone).
    ///   - runningProvider: in the daemon, its polling provider of a name when that has a chart
    ///     endpoint; the backfill then never builds a provider of its own.
    public static func read(symbol: String, range: HistoryRange, interval: CandleInterval, provider requested: String?,
                            configPath: String, environment: [String: String], now: Timestamp,
                            marketHours: any MarketHours = AlwaysOpenMarkets(), builtInWhenAbsent: Bool = false,
                            runningProvider: ((String) -> (any PriceChartProviding)?)? = nil,
                            report: ([Diagnostic]) -> Void) async -> Outcome {
        let from = range.start(endingAt: now)
        let to = Timestamp(milliseconds: now.milliseconds + 1)
        let noFile = builtInWhenAbsent && !FileManager.default.fileExists(atPath: configPath)
        let (loaded, diagnostics) = noFile
            ? (BuiltInProviders.configuration(environment: environment), [])
            : ConfigurationLoader.load(mainFile: configPath, environment: environment, schemas: AdapterCatalog.schemas)
        if let loaded { SecretRedaction.commandOutput.update(for: loaded) }
        guard let configuration = loaded, !diagnostics.containsErrors else {
            report(diagnostics.filter { $0.severity == .error })
            return .configurationFailed
        }
        let rules = configuration.rules.filter { $0.symbols.contains(symbol) }
        let thresholds = rules.compactMap { rule in
            rule.priceLevel.map { TerminalChart.Level(label: "\(rule.id): \(rule.conditionText)", price: $0) }
        }

        var charting: (name: String, provider: any PriceChartProviding)?
        var stored: [Candle] = []
        var currency: String?
        var quotedPreviousCloses: [QuotedPreviousClose] = []
        if !configuration.statePath.isEmpty, FileManager.default.fileExists(atPath: configuration.statePath) {
            do {
                let store = try SQLiteAlertStore.openReadOnly(path: configuration.statePath)
                stored = try await store.candles(symbol: symbol, interval: interval, from: from, to: to)
                currency = try await store.latestCurrency(symbol: symbol)
                quotedPreviousCloses = try await store.quotedPreviousCloses(symbol: symbol, from: from, to: to)
                try store.close()
            } catch {
                return .failed("\(error)")
            }
        }
        var history = History(symbol: symbol, interval: interval, from: from, to: to, candles: stored, source: .stored,
                              currency: currency, previousClose: nil, closeBeforeRange: nil, quotedPreviousCloses: quotedPreviousCloses,
                              marketTimeZone: nil, thresholds: thresholds)
        let reach = max(interval.seconds, 86_400) * 1000 * (interval == .oneDay ? 4 : 1)
        let covered = stored.first.map { $0.time.milliseconds - from.milliseconds <= reach } ?? false
        if !covered {
            let backfillEnd = stored.first?.time ?? to
            let name = requested ?? rules.lazy.compactMap(\.provider).first
            // In the daemon: the provider that polls, not one built for this read (a Yahoo
            // session of its own, a replay file read again).
            if let runningProvider {
                let chosen = name ?? configuration.defaultProvider ?? ""
                if let chartProvider = runningProvider(chosen) {
                    charting = (chosen, chartProvider)
                } else {
                    history.backfillProblem = "provider '\(chosen)' has no chart endpoint or does not poll"
                }
            } else {
                switch SelectProvider.select(configPath: configPath, environment: environment, requested: name,
                                             builtInWhenAbsent: builtInWhenAbsent, report: { _ in }) {
                case .selected(let selection):
                    if let chartProvider = selection.provider as? any PriceChartProviding {
                        charting = (selection.name, chartProvider)
                    } else {
                        history.backfillProblem = "provider '\(selection.name)' (type \(selection.type)) has no chart endpoint"
                    }
                case .failed(let line):
                    history.backfillProblem = line
                case .configurationFailed:
                    history.backfillProblem = "the provider's configuration has errors (see pricewatch check)"
                }
            }
            if let (providerName, chartProvider) = charting {
                do {
                    let chart = try await chartProvider.chart(symbol: symbol, interval: interval, from: from, to: backfillEnd)
                    history.candles = chart.candles + stored
                    history.backfilled = chart.candles
                    history.source = stored.isEmpty ? .provider(providerName) : .storedAndProvider(providerName)
                    history.currency = chart.currency ?? history.currency
                    history.previousClose = chart.previousClose
                    history.closeBeforeRange = chart.previousClose
                    history.marketTimeZone = chart.exchangeTimeZone
                } catch {
                    history.backfillProblem = "provider '\(providerName)': \(ControlCharacters.escaped(error.message))"
                }
            }
            if history.candles.isEmpty, let problem = history.backfillProblem {
                return .failed("no stored history of \(symbol) in this range, and no backfill: \(problem)")
            }
        }
        if let market = marketHours.market(ofSymbol: symbol, exchange: nil), let zone = marketHours.timeZone(of: market) {
            history.marketTimeZone = zone
        }
        if history.previousClose == nil { history.previousClose = previousDayClose(history.candles, zone: history.marketTimeZone) }
        for rule in rules {
            guard let series = rule.series else { continue }
            let bars = await seriesBars(series, of: symbol, rule: rule, history: history, statePath: configuration.statePath,
                                        charting: charting?.provider, marketHours: marketHours)
            let number = series.level == nil && !rule.condition.isPercent ? rule.condition.value.doubleValue : nil
            let lines = SeriesChartLines(specs: series.series, bars: bars, shownFrom: from,
                                         ruleLevel: number.map { (series.of.description, $0) },
                                         suffix: interval.seconds == series.timeframe.seconds ? "" : " \(series.timeframe)")
            history.seriesLines = history.seriesLines.merged(with: lines)
        }
        return .read(history)
    }

    /// A technical rule's bars over the range and the warm-up before it: the range's own
    /// candles when they are of the width the timeframe is read in, else the stored ones, and
    /// the provider's chart endpoint (when it has one) where those are too few.
    static func seriesBars(_ series: SeriesCondition, of symbol: String, rule: Rule, history: History, statePath: String,
                           charting: (any PriceChartProviding)?, marketHours: any MarketHours) async -> [BarHistory.Bar] {
        let width = BarHistory.candleInterval(for: series.timeframe)
        let needed = series.warmUpBars + 1
        let from = Timestamp(milliseconds: history.from.milliseconds &- BarHistory.lookBack(bars: needed, timeframe: series.timeframe))
        var candles: [Candle] = []
        if !statePath.isEmpty, FileManager.default.fileExists(atPath: statePath),
           let store = try? SQLiteAlertStore.openReadOnly(path: statePath) {
            candles = (try? await store.candles(symbol: symbol, interval: width, from: from, to: history.to)) ?? []
            try? store.close()
        }
        if width == history.interval, history.candles.count > candles.count { candles = history.candles }
        let placement = marketHours.barPlacement(ofSymbol: symbol, market: rule.market)
        var bars = BarHistory.bars(from: candles, timeframe: series.timeframe, limit: .max, placement: placement)
        let beforeRange = bars.filter { $0.time < history.from }.count
        if beforeRange < series.warmUpBars, let charting,
           let chart = try? await charting.chart(symbol: symbol, interval: width, from: from,
                                                 to: candles.first?.time ?? history.to) {
            bars = BarHistory.bars(from: chart.candles + candles, timeframe: series.timeframe, limit: .max, placement: placement)
        }
        return bars
    }

    /// The last close of the day before the newest candle's day, in `zone` (UTC when nil).
    static func previousDayClose(_ candles: [Candle], zone: String?) -> ExactDecimal? {
        guard let last = candles.last else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .gmt
        func day(_ time: Timestamp) -> DateComponents {
            calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        }
        let lastDay = day(last.time)
        return candles.last { day($0.time) != lastDay }?.close
    }
}
