import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchStore

/// `pricewatch watch`: every watched symbol with its newest stored price, the day's range and
/// sparkline from the stored history, its market's status and its rules' states. Reads the
/// configuration and the state database read-only, so it works while the daemon runs.
public enum ReadWatchlist {
    public enum Outcome: Sendable {
        case configurationFailed
        case failed(String)
        /// The entries in symbol order, and the shortest poll interval (the refresh period).
        case read([WatchlistEntry], refresh: RuleDuration)
    }

    public static func read(configPath: String, environment: [String: String], now: Timestamp,
                            marketHours: any MarketHours = AlwaysOpenMarkets(),
                            report: ([Diagnostic]) -> Void) async -> Outcome {
        guard let configuration = CommandConfiguration.load(configPath: configPath, environment: environment, report: report) else {
            return .configurationFailed
        }
        var states: [RuleStateKey: StoredRuleState] = [:]
        var quotes: [ProviderSymbol: Quote] = [:]
        var store: SQLiteAlertStore?
        var snapshots: [RuleStateKey: SeriesSnapshot] = [:]
        if FileManager.default.fileExists(atPath: configuration.statePath) {
            do {
                let opened = try SQLiteAlertStore.openReadOnly(path: configuration.statePath)
                store = opened
                states = try await opened.ruleStates()
                quotes = try await opened.latestQuoteDetails()
                snapshots = try await ReadRuleStatus.seriesSnapshots(of: configuration, history: opened, configPath: configPath,
                                                                     environment: environment, now: now)
            } catch {
                try? store?.close()
                return .failed("\(error)")
            }
        }
        defer { try? store?.close() }
        var entries: [WatchlistEntry] = []
        for symbol in configuration.allSymbols.sorted() {
            let rules = configuration.rules.filter { $0.symbols.contains(symbol) }
            let provider = rules.lazy.compactMap(\.provider).first
            var entry = WatchlistEntry(symbol: symbol, provider: provider, rules: rules.map { rule in
                let key = RuleStateKey(rule: rule.id, symbol: symbol)
                return WatchlistEntry.RuleState(
                    rule: rule.id, state: RuleStatus.state(of: rule, stored: states[key], now: now),
                    series: rule.series.map { snapshots[key] ?? SeriesSnapshot(condition: $0, bars: []) })
            })
            let quote = provider.flatMap { quotes[ProviderSymbol(provider: $0, symbol: symbol)] }
            entry.price = quote?.price
            entry.time = quote?.time
            entry.previousClose = quote?.previousClose
            entry.currency = quote?.currency
            let market = marketHours.market(ofSymbol: symbol, exchange: quote?.exchange)
            if let market {
                entry.market = market
                entry.marketStatus = marketHours.status(of: market, at: now)
                entry.marketTimeZone = marketHours.timeZone(of: market)
            }
            if let store, let time = quote?.time {
                let zone = market.flatMap(marketHours.timeZone(of:)).flatMap(TimeZone.init(identifier:))
                    ?? TimeZone(identifier: "UTC") ?? .gmt
                let dayStart = startOfDay(time, zone: zone)
                do {
                    let candles = try await store.candles(symbol: symbol, interval: .oneMinute, from: dayStart,
                                                          to: Timestamp(milliseconds: time.milliseconds + 60_000))
                    entry.dayCloses = candles.map(\.close)
                    entry.dayLow = candles.map(\.low).min()
                    entry.dayHigh = candles.map(\.high).max()
                } catch {
                    return .failed("\(error)")
                }
            }
            entries.append(entry)
        }
        let refresh = configuration.providers.map(\.interval).min() ?? configuration.interval
        return .read(entries, refresh: refresh)
    }

    /// Midnight of the day of `time` in `zone`.
    static func startOfDay(_ time: Timestamp, zone: TimeZone) -> Timestamp {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        return Timestamp(milliseconds: Int64((start.timeIntervalSince1970 * 1000).rounded()))
    }
}
