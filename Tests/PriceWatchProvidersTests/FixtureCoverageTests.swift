import Testing

/// Every recorded payload of every supported service is decoded by some test: a new fixture
/// file without a test fails here.
@Suite struct FixtureCoverageTests {
    static let covered: [String: Set<String>] = [
        "yahoo": YahooDecoderTests.fixtures.union(YahooCalendarTests.fixtures),
        "finnhub": FinnhubDecoderTests.fixtures.union(FinnhubCalendarTests.fixtures),
        "coinbase": CoinbaseDecoderTests.fixtures.union(ChartDecoderTests.coinbaseFixtures),
        "binance": BinanceDecoderTests.fixtures.union(ChartDecoderTests.binanceFixtures),
        "twelvedata": TwelveDataDecoderTests.fixtures,
        "kraken": KrakenDecoderTests.fixtures,
        "coingecko": CoinGeckoProviderTests.fixtures,
        "nasdaq": NasdaqProviderTests.fixtures.union(NasdaqCalendarTests.fixtures),
        // The feed's fixtures are written in its recorded shape; NOTES.md says where that comes from.
        "yahoo-news": YahooNewsFeedDecoderTests.fixtures.union(["NOTES.md"]),
    ]

    @Test(arguments: ["yahoo", "finnhub", "coinbase", "binance", "twelvedata", "kraken", "coingecko", "nasdaq", "yahoo-news"])
    func everyFixtureIsDecodedByATest(service: String) throws {
        let files = try ProviderFixtures.files(service)
        #expect(!files.isEmpty)
        #expect(files == Self.covered[service], "untested: \(files.subtracting(Self.covered[service] ?? []).sorted())")
    }
}
