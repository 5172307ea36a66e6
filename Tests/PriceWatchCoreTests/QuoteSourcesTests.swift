import PriceWatchCore
import Testing

/// Which source serves a provider's symbols, and the changes said once each.
@Suite struct QuoteSourcesTests {
    static func poll(_ symbols: [String], servedBy: [String: String] = [:]) -> PolledQuotes {
        var results: [String: Result<Quote, ProviderError>] = [:]
        for symbol in symbols {
            results[symbol] = .success(Quote(symbol: symbol, price: ExactDecimal(scaled: 100_000_000), time: Timestamp(milliseconds: 1)))
        }
        return PolledQuotes(provider: "yahoo", results: results, servedBy: servedBy, time: Timestamp(milliseconds: 2))
    }

    @Test func aChangeIsSaidOnceAndTheReturnOnce() {
        var sources = QuoteSources()
        #expect(sources.record(Self.poll(["AAPL", "BTC-USD"])).isEmpty, "the provider serving itself is no change")
        let away = sources.record(Self.poll(["MSFT", "AAPL", "BTC-USD"],
                                            servedBy: ["AAPL": "nasdaq", "MSFT": "nasdaq", "BTC-USD": "coingecko"]))
        #expect(away == [
            QuoteSources.Change(provider: "yahoo", symbols: ["BTC-USD"], source: "coingecko", previous: "yahoo"),
            QuoteSources.Change(provider: "yahoo", symbols: ["AAPL", "MSFT"], source: "nasdaq", previous: "yahoo"),
        ])
        #expect(sources.record(Self.poll(["AAPL"], servedBy: ["AAPL": "nasdaq"])).isEmpty, "still nasdaq")
        #expect(sources.record(Self.poll([])).isEmpty, "no quote: no change")
        #expect(sources.source(of: "MSFT", provider: "yahoo") == "nasdaq")
        let back = sources.record(Self.poll(["AAPL", "BTC-USD"], servedBy: ["BTC-USD": "coingecko"]))
        #expect(back == [QuoteSources.Change(provider: "yahoo", symbols: ["AAPL"], source: "yahoo", previous: "nasdaq")])
        #expect(sources.source(of: "AAPL", provider: "yahoo") == "yahoo")
        #expect(sources.source(of: "MSFT", provider: "yahoo") == "nasdaq", "MSFT had no quote since")
    }
}
