/// Finds a symbol's market from what its provider said and the symbol's own form.
///
/// The order: the provider's exchange code (Yahoo's `NMS`, `LSE`, `GER`; Twelve Data's
/// `NASDAQ`; a MIC such as `XNGS`; Finnhub's `BINANCE:` or `OANDA:` prefix), then the
/// symbol's suffix (`.L`, `.DE`, `.us`, `=F`, `=X`), then crypto pairs (`BTC-USD`, `BTCUSDT`,
/// `XBT/EUR`), then currency pairs (`EUR/USD`, `EURUSD`), then nil. A plain US-style ticker
/// (`AAPL`) without an exchange code stays nil: guessing would stop polling it on US holidays
/// even when it trades elsewhere.
public struct SymbolMarketResolver: Sendable {
    /// Provider exchange codes, upper-cased, to markets.
    public static let exchangeCodes: [String: MarketIdentifier] = {
        var table: [String: MarketIdentifier] = [:]
        func add(_ market: String, _ codes: [String]) {
            for code in codes { table[code] = MarketIdentifier(market) }
        }
        add("XNYS", ["NMS", "NGM", "NCM", "NAS", "NASDAQ", "NYQ", "NYSE", "ASE", "AMEX", "PCX", "NYSEARCA", "BTS",
                     "BATS", "CBOE", "PNK", "OTC", "OQB", "OQX", "OPR", "NIM", "XNYS", "XNAS", "XNGS", "XNMS",
                     "XNCM", "XASE", "ARCX", "NASDAQGS", "NASDAQGM", "NASDAQCM", "NYSE ARCA", "NYSE AMERICAN",
                     "SNP", "DJI", "WCB", "US"])
        add("XLON", ["LSE", "IOB", "LON", "XLON", "AIM"])
        add("XETR", ["GER", "XETRA", "XETR", "ETR"])
        add("XPAR", ["PAR", "ENX", "EURONEXT", "XPAR"])
        add("XSWX", ["EBS", "VTX", "SWX", "SIX", "XSWX", "XVTX"])
        add("XTKS", ["JPX", "TYO", "TSE", "XTKS", "XJPX"])
        add("XHKG", ["HKG", "HKEX", "XHKG", "HKSE"])
        add("XSHG", ["SHH", "SSE", "XSHG", "SHZ", "SZSE", "XSHE"])
        add("XTSE", ["TOR", "TSX", "XTSE", "VAN", "TSXV", "XTSX", "CNQ", "NEO"])
        add("XASX", ["ASX", "XASX", "AX"])
        add("CMES", ["CME", "CMX", "NYM", "CBT", "CBOT", "COMEX", "NYMEX", "GLOBEX", "CMES", "XCME"])
        add("24/5", ["CCY", "FX", "FOREX", "PHYSICAL CURRENCY", "OANDA", "FXCM", "FXPRO", "FOREX.COM", "IC MARKETS"])
        add("24/7", ["CCC", "CRYPTO", "BINANCE", "COINBASE", "KRAKEN", "CRYPTOCURRENCY"])
        return table
    }()

    /// Symbol suffixes (after the last `.`) to markets.
    public static let suffixes: [String: MarketIdentifier] = [
        "L": MarketIdentifier("XLON"), "IL": MarketIdentifier("XLON"),
        "DE": MarketIdentifier("XETR"),
        "PA": MarketIdentifier("XPAR"),
        "SW": MarketIdentifier("XSWX"), "VX": MarketIdentifier("XSWX"),
        "T": MarketIdentifier("XTKS"),
        "HK": MarketIdentifier("XHKG"),
        "SS": MarketIdentifier("XSHG"), "SZ": MarketIdentifier("XSHG"),
        "TO": MarketIdentifier("XTSE"), "V": MarketIdentifier("XTSE"),
        "AX": MarketIdentifier("XASX"),
        // Stooq's country suffixes (`aapl.us`, `vod.uk`, `7203.jp`).
        "US": MarketIdentifier("XNYS"), "UK": MarketIdentifier("XLON"), "JP": MarketIdentifier("XTKS"),
    ]

    /// ISO 4217 codes of currencies traded around the clock on weekdays: a pair of two of
    /// them (`EUR/USD`, `EURUSD`) is a currency pair.
    static let fiatCurrencies: Set<String> = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "CNY", "CNH", "HKD",
                                              "SEK", "NOK", "DKK", "SGD", "MXN", "ZAR", "TRY", "PLN", "INR", "KRW",
                                              "BRL", "HUF", "CZK", "ILS", "THB", "TWD"]

    /// Quote currencies a crypto pair ends in (`BTCUSDT`, `ETH-EUR`).
    static let cryptoQuoteCurrencies = ["USDT", "USDC", "BUSD", "FDUSD", "USD", "EUR", "GBP", "BTC", "ETH", "JPY", "TRY"]

    /// Base assets that mark a symbol as crypto.
    static let cryptoAssets: Set<String> = ["BTC", "XBT", "ETH", "SOL", "XRP", "ADA", "DOGE", "LTC", "DOT", "BNB",
                                             "AVAX", "LINK", "MATIC", "TRX", "SHIB", "BCH", "XLM", "ATOM", "UNI",
                                             "USDT", "USDC", "ETC", "XMR", "ALGO", "NEAR", "APT", "ARB", "OP", "TON"]

    /// CoinGecko's coin ids (upper-cased), which are its symbols.
    static let coinGeckoIdentifiers: Set<String> = ["BITCOIN", "ETHEREUM", "SOLANA", "RIPPLE", "CARDANO", "DOGECOIN",
                                                    "LITECOIN", "POLKADOT", "TETHER", "USD-COIN", "BINANCECOIN"]

    public init() {}

    /// The market of `symbol`, nil when neither the exchange code nor the symbol tells.
    public func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? {
        if let exchange {
            let code = exchange.trimmingSpaces().uppercased()
            if let market = Self.exchangeCodes[code] { return market }
        }
        var upper = symbol.uppercased()
        // Finnhub's `EXCHANGE:SYMBOL` (`BINANCE:BTCUSDT`, `OANDA:EUR_USD`).
        // Searched by byte (the marks are ASCII): a daemon resolves every watched symbol at start.
        if let colon = upper.utf8.firstIndex(of: UInt8(ascii: ":")) {
            if let market = Self.exchangeCodes[String(upper[..<colon])] { return market }
            upper = String(upper[upper.utf8.index(after: colon)...])
        }
        if upper.hasSuffix("=F") { return MarketIdentifier("CMES") }
        if upper.hasSuffix("=X") { return .currencies }
        if let dot = upper.utf8.lastIndex(of: UInt8(ascii: ".")), dot != upper.startIndex {
            let suffix = String(upper[upper.utf8.index(after: dot)...])
            if let market = Self.suffixes[suffix] { return market }
        }
        if isCryptoPair(upper) { return .crypto }
        if isCurrencyPair(upper) { return .currencies }
        return nil
    }

    private func isCurrencyPair(_ symbol: String) -> Bool {
        let letters = symbol.filter { $0 != "/" && $0 != "_" && $0 != "-" }
        guard letters.count == 6, symbol.count - letters.count <= 1 else { return false }
        return Self.fiatCurrencies.contains(String(letters.prefix(3))) && Self.fiatCurrencies.contains(String(letters.suffix(3)))
    }

    private func isCryptoPair(_ symbol: String) -> Bool {
        for separator in [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "_")] {
            guard let first = symbol.utf8.firstIndex(of: separator) else { continue }
            let rest = symbol.utf8[symbol.utf8.index(after: first)...]
            return !rest.contains(separator) && Self.cryptoAssets.contains(String(symbol[..<first]))
        }
        for quote in Self.cryptoQuoteCurrencies where symbol.hasSuffix(quote) && symbol.count > quote.count {
            if Self.cryptoAssets.contains(String(symbol.dropLast(quote.count))) { return true }
        }
        return Self.coinGeckoIdentifiers.contains(symbol)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
