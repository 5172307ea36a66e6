import Foundation
import PriceWatchConfig
import PriceWatchCore

/// `pricewatch backtest --symbol GOOG --since 2y`: the history of each symbol fetched from a
/// provider's chart endpoint and written as a backtest CSV, so a rule can be tried before it
/// is deployed, on exactly what `pricewatch history --format csv` would print.
public enum FetchBacktestHistory {
    /// What fetching found.
    public enum Outcome: Sendable {
        /// The configuration, or the provider's settings, has errors (given to `report`).
        case configurationFailed
        /// One line that says what failed.
        case failed(String)
        /// The CSV file written (the caller removes it), and per symbol how many candles.
        case written(path: String, candles: [(symbol: String, count: Int)], provider: String)
    }

    /// The candle width for the rules at `path` (days when they cannot be read: the backtest
    /// reports why).
    public static func interval(rulesAt path: String) -> CandleInterval {
        interval(for: ConfigurationLoader.loadRules(at: path).rules ?? [])
    }

    /// The candle width for `rules`: the widest that divides every technical rule's timeframe
    /// (a price rule alone: days); minutes when a rule evaluates every quote (`trigger = "tick"`).
    public static func interval(for rules: [Rule]) -> CandleInterval {
        if rules.contains(where: { $0.series?.trigger == .tick }) { return .oneMinute }
        let timeframes = rules.compactMap(\.series?.timeframe)
        guard !timeframes.isEmpty else { return .oneDay }
        return timeframes.map(BarHistory.candleInterval(for:)).min { $0.seconds < $1.seconds } ?? .oneDay
    }

    /// Fetches `symbols` over the `days` before `now` at `interval` (no further back than the
    /// endpoints serve at that width) from `requested` (default: the main file's provider, or
    /// the keyless built-in ones without a main file) and writes them to a temporary CSV.
    public static func fetch(symbols: [String], days: Int, interval: CandleInterval, requested: String?,
                             configPath: String, environment: [String: String], builtInWhenAbsent: Bool,
                             now: Timestamp, report: ([Diagnostic]) -> Void) async -> Outcome {
        let selection: SelectProvider.Selection
        switch SelectProvider.select(configPath: configPath, environment: environment, requested: requested,
                                     builtInWhenAbsent: builtInWhenAbsent, report: report) {
        case .configurationFailed: return .configurationFailed
        case .failed(let line): return .failed(line)
        case .selected(let selected): selection = selected
        }
        guard let chart = selection.provider as? any PriceChartProviding else {
            return .failed("provider '\(selection.name)' (type \(selection.type)) has no chart endpoint to fetch history from; "
                           + "use one of type yahoo, binance or coinbase, or --data FILE")
        }
        let reach = min(Int64(days) * 86_400_000, BarHistory.longestFetch(of: interval))
        let from = Timestamp(milliseconds: now.milliseconds &- reach)
        var lines: [String] = []
        var counts: [(symbol: String, count: Int)] = []
        for symbol in symbols {
            do {
                let answer = try await chart.chart(symbol: symbol, interval: interval, from: from, to: now)
                let rows = HistoryCSV.rows(symbol: symbol, candles: answer.candles, currency: answer.currency,
                                         firstPreviousClose: answer.previousClose,
                                         timeZone: answer.exchangeTimeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .current)
                // Each symbol's rows start with the header: one header for the file.
                lines += lines.isEmpty ? rows : Array(rows.dropFirst())
                counts.append((symbol, answer.candles.count))
            } catch {
                return .failed("\(symbol): provider '\(selection.name)': \(ControlCharacters.escaped(error.message))")
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pricewatch-backtest-\(UUID().uuidString).csv").path
        do {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return .failed("could not write the fetched history to \(path): \(error.localizedDescription)")
        }
        return .written(path: path, candles: counts, provider: selection.name)
    }
}
