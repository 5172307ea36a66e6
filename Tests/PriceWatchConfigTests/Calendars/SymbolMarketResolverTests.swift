import PriceWatchConfig
import PriceWatchCore
import Testing

@Suite("Symbol to market")
struct SymbolMarketResolverTests {
    let markets = ShippedCalendars.calendars

    @Test(arguments: [
        ("AAPL", "NMS", "XNYS"), ("IBM", "NYQ", "XNYS"), ("MSFT", "NASDAQ", "XNYS"), ("SPY", "PCX", "XNYS"),
        ("VOD.L", "LSE", "XLON"), ("SAP.DE", "GER", "XETR"), ("AIR.PA", "PAR", "XPAR"), ("NESN.SW", "EBS", "XSWX"),
        ("7203.T", "JPX", "XTKS"), ("0700.HK", "HKG", "XHKG"), ("600519.SS", "SHH", "XSHG"), ("RY.TO", "TOR", "XTSE"),
        ("BHP.AX", "ASX", "XASX"), ("ES=F", "CME", "CMES"), ("EURUSD=X", "CCY", "24/5"), ("BTC-USD", "CCC", "24/7"),
    ])
    func providerExchangeCodes(symbol: String, exchange: String, market: String) {
        #expect(markets.market(ofSymbol: symbol, exchange: exchange) == MarketIdentifier(market))
    }

    @Test(arguments: [
        ("VOD.L", "XLON"), ("SAP.DE", "XETR"), ("AIR.PA", "XPAR"), ("NESN.SW", "XSWX"), ("7203.T", "XTKS"),
        ("0700.HK", "XHKG"), ("600519.SS", "XSHG"), ("RY.TO", "XTSE"), ("BHP.AX", "XASX"), ("ES=F", "CMES"),
        ("EURUSD=X", "24/5"), ("BTC-USD", "24/7"), ("BTCUSDT", "24/7"), ("XBT/EUR", "24/7"), ("eth-eur", "24/7"),
        ("bitcoin", "24/7"), ("XBTUSD", "24/7"), ("BINANCE:BTCUSDT", "24/7"), ("OANDA:EUR_USD", "24/5"), ("EUR/USD", "24/5"),
        ("GBPJPY", "24/5"), ("aapl.us", "XNYS"), ("vod.uk", "XLON"),
    ])
    func symbolForms(symbol: String, market: String) {
        #expect(markets.market(ofSymbol: symbol, exchange: nil) == MarketIdentifier(market))
    }

    @Test func unknownFormsStayUnknown() {
        #expect(markets.market(ofSymbol: "AAPL", exchange: nil) == nil)
        #expect(markets.market(ofSymbol: "BRK.B", exchange: nil) == nil)
        #expect(markets.market(ofSymbol: "AAPL", exchange: "WHATEVER") == nil)
        #expect(markets.market(ofSymbol: "EURUSDX", exchange: nil) == nil)
        // A pair has one separator: a second makes it no pair.
        #expect(markets.market(ofSymbol: "BTC-USD-PERP", exchange: nil) == nil)
        #expect(markets.market(ofSymbol: "DOGE/", exchange: nil) == MarketIdentifier("24/7"))
        #expect(AlwaysOpenMarkets().market(ofSymbol: "VOD.L", exchange: nil) == nil)
    }

    @Test func theExchangeCodeWinsOverTheSuffix() {
        // A London-listed symbol quoted with a US exchange code is a US listing (an ADR, say).
        #expect(markets.market(ofSymbol: "X.L", exchange: "NYQ") == MarketIdentifier("XNYS"))
    }
}
