import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch portfolio [NAME]`: the portfolios of `portfolios.d` valued at the latest prices
/// the daemon recorded (the state database, read-only), converted to each portfolio's home
/// currency with the reference rates when asked (docs/portfolios.md).
public enum ValuePortfolio {
    public enum Outcome: Sendable {
        /// The configuration or a portfolio file has errors (given to `report`).
        case configurationFailed
        /// No portfolio has that name: the names there are.
        case unknownPortfolio(available: [String])
        /// The database or the rates could not be read.
        case failed(String)
        case valued([PortfolioValuation])
    }

    /// - Parameter rates: convert other currencies with these reference rates (fetched now); nil:
    ///   with the currency pairs the daemon recorded (`USDEUR=X`).
    public static func run(configPath: String, environment: [String: String], name: String?, rates: LookUpExchangeRate.Reference?,
                           ratesURL: String?, now: Timestamp, report: ([Diagnostic]) -> Void) async -> Outcome {
        guard let configuration = CommandConfiguration.load(configPath: configPath, environment: environment, report: report) else {
            return .configurationFailed
        }
        let portfolios = configuration.portfolios
        let chosen = name.map { wanted in portfolios.filter { $0.name == wanted } } ?? portfolios
        if chosen.isEmpty { return .unknownPortfolio(available: portfolios.map(\.name)) }
        var book = ExchangeRateBook()
        if let rates {
            switch await LookUpExchangeRate.book(source: rates, url: ratesURL) {
            case .success(let fetched): book = fetched
            case .failure(let failure): return .failed(failure.description)
            }
        }
        var prices: [String: PortfolioValuation.Price] = [:]
        if FileManager.default.fileExists(atPath: configuration.statePath) {
            do {
                let store = try SQLiteAlertStore.openReadOnly(path: configuration.statePath)
                let recorded = RecordedPrices(try await store.latestQuoteDetails())
                try store.close()
                prices = recorded.prices
                // Without reference rates, the recorded currency pairs (USDEUR=X) are the rates.
                if rates == nil { book = recorded.rates }
            } catch {
                return .failed("\(error)")
            }
        }
        let frozen = book
        let freshness = PriceFreshness(staleAfterMilliseconds: configuration.staleAfter.seconds * 1000,
                                       hours: MarketCalendarsLoader.load(configPath: configPath, environment: environment).calendars)
        return .valued(chosen.map { portfolio in
            PortfolioValuation.value(portfolio, prices: prices, now: now, isStale: { symbol, price in
                freshness.isStale(symbol: symbol, time: price.time, now: now)
            }, rate: { from, to in frozen.convert(from: from, to: to, at: now) })
        })
    }
}
