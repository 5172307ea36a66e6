import PriceWatchCore

/// The `replay` provider: plays back a CSV in the backtest format, for demos and tests.
///
/// Each poll returns, for every requested symbol, its next row in time order; after its last
/// row a symbol has no new quotes. Playback starts from the first row every time the daemon
/// starts: rows the store has already accepted are repeats and are neither stored nor
/// evaluated again, so a restart never fires an alert twice.
public actor ReplayProvider: QuoteProvider {
    public nonisolated let name: String
    public nonisolated var maximumBatchSize: Int { Int.max }
    private let rowsBySymbol: [String: [Quote]]
    private var position: [String: Int] = [:]

    /// Creates a provider over an already-read series.
    public init(name: String, series: PriceSeries) {
        self.name = name
        var rows: [String: [Quote]] = [:]
        for index in series.timeOrder {
            let quote = series.quote(at: index)
            rows[quote.symbol, default: []].append(quote)
        }
        self.rowsBySymbol = rows
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        var result: [String: Result<Quote, ProviderError>] = [:]
        for symbol in symbols {
            guard let rows = rowsBySymbol[symbol] else {
                result[symbol] = .failure(ProviderError(.unknownSymbol, "\(symbol): not in the replay file"))
                continue
            }
            let next = position[symbol, default: 0]
            guard next < rows.count else { continue }
            position[symbol] = next + 1
            result[symbol] = .success(rows[next])
        }
        return result
    }
}
