import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchStore

/// `pricewatch rules`: every rule and symbol of the configuration with its state, last price
/// and last alert, read from the state database (read-only, so it works while the daemon runs).
public enum ReadRuleStatus {
    /// What reading found.
    public enum Outcome: Sendable {
        /// The configuration has errors (given to `report`).
        case configurationFailed
        /// The database could not be read: the error, for one line.
        case failed(String)
        /// One status per rule and symbol, in configuration order.
        case read([RuleStatus])
    }

    /// Reads the status at wall-clock `now` (for cooldowns and expiry). A state database that
    /// does not exist yet gives every rule its initial state.
    public static func read(configPath: String, environment: [String: String], now: Timestamp,
                            report: ([Diagnostic]) -> Void) async -> Outcome {
        guard let configuration = CommandConfiguration.load(configPath: configPath, environment: environment, report: report) else {
            return .configurationFailed
        }
        var states: [RuleStateKey: StoredRuleState] = [:]
        var quotes: [ProviderSymbol: HistoryPoint] = [:]
        var alerts: [RuleStateKey: AlertRecord] = [:]
        var snapshots: [RuleStateKey: SeriesSnapshot] = [:]
        if FileManager.default.fileExists(atPath: configuration.statePath) {
            do {
                let store = try SQLiteAlertStore.openReadOnly(path: configuration.statePath)
                states = try await store.ruleStates()
                quotes = try await store.latestQuotes()
                alerts = try await store.lastAlerts()
                snapshots = try await seriesSnapshots(of: configuration, history: store, configPath: configPath,
                                                      environment: environment, now: now)
                try store.close()
            } catch {
                return .failed("\(error)")
            }
        }
        var statuses: [RuleStatus] = []
        // Portfolio rules after price rules; their one symbol is the figure (`@retirement:value`).
        for rule in configuration.rules + configuration.portfolioRules {
            for symbol in rule.symbols {
                let key = RuleStateKey(rule: rule.id, symbol: symbol)
                let record = alerts[key]
                statuses.append(RuleStatus(
                    rule: rule.id, symbol: symbol, provider: rule.provider, condition: rule.conditionText,
                    state: RuleStatus.state(of: rule, stored: states[key], now: now),
                    lastPrice: rule.provider.flatMap { quotes[ProviderSymbol(provider: $0, symbol: symbol)] },
                    lastAlert: record?.alert, lastAlertDeliveries: record?.deliveries.map(\.status) ?? []))
                if let series = rule.series {
                    statuses[statuses.count - 1].series = snapshots[key]
                        ?? SeriesSnapshot(condition: series, bars: [])
                }
            }
        }
        return .read(statuses)
    }

    /// Each technical rule's bars over the stored candles, grouped as the daemon groups them
    /// (the same alignment and trading calendars), for the warm-up and the series' values.
    static func seriesSnapshots(of configuration: Configuration, history: any PriceHistoryReader, configPath: String,
                                environment: [String: String], now: Timestamp) async throws -> [RuleStateKey: SeriesSnapshot] {
        let technical = configuration.rules.filter { $0.series != nil }
        guard !technical.isEmpty else { return [:] }
        let markets = MarketCalendarsLoader.load(configPath: configPath, environment: environment).0
        var snapshots: [RuleStateKey: SeriesSnapshot] = [:]
        for rule in technical {
            guard let series = rule.series else { continue }
            for symbol in rule.symbols {
                let needed = series.warmUpBars + 1
                let from = Timestamp(milliseconds: now.milliseconds &- BarHistory.lookBack(bars: needed, timeframe: series.timeframe))
                let candles = try await history.candles(symbol: symbol, interval: BarHistory.candleInterval(for: series.timeframe),
                                                        from: from, to: Timestamp(milliseconds: now.milliseconds &+ 60_000))
                let bars = BarHistory.bars(from: candles, timeframe: series.timeframe, limit: needed,
                                           placement: markets.barPlacement(ofSymbol: symbol, market: rule.market))
                snapshots[RuleStateKey(rule: rule.id, symbol: symbol)] = SeriesSnapshot(condition: series, bars: bars)
            }
        }
        return snapshots
    }
}
