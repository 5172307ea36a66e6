/// A symbol as the CoinGecko provider reads it: a pair written `BASE-QUOTE` (`BTC-USD`, the
/// spelling Yahoo and Coinbase use), or a CoinGecko coin id and a currency
/// (`unique-network-USD`). The quote currency is after the last `-`; a base among the
/// well-known tickers (``coinIDs``) is their coin id, any other base is taken as a coin id.
struct CoinGeckoPair: Sendable, Hashable {
    /// CoinGecko's coin id (`bitcoin`).
    let coin: String
    /// The currency, lowercase as CoinGecko's `vs_currencies` takes it (`usd`).
    let currency: String

    /// Nil when the symbol has no `-` or an empty side.
    init?(_ symbol: String) {
        guard let dash = symbol.lastIndex(of: "-") else { return nil }
        let base = String(symbol[..<dash]), quote = String(symbol[symbol.index(after: dash)...])
        guard !base.isEmpty, !quote.isEmpty,
              base.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }),
              quote.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return nil }
        coin = Self.coinIDs[base.uppercased()] ?? base.lowercased()
        currency = quote.lowercased()
    }

    /// The coin ids of the most traded tickers (CoinGecko's ids are not the tickers:
    /// `BTC` is `bitcoin`, `AVAX` is `avalanche-2`).
    static let coinIDs: [String: String] = [
        "BTC": "bitcoin", "ETH": "ethereum", "USDT": "tether", "BNB": "binancecoin", "SOL": "solana",
        "XRP": "ripple", "USDC": "usd-coin", "ADA": "cardano", "DOGE": "dogecoin", "TRX": "tron",
        "DOT": "polkadot", "LTC": "litecoin", "LINK": "chainlink", "AVAX": "avalanche-2", "MATIC": "matic-network",
        "XLM": "stellar", "BCH": "bitcoin-cash", "ATOM": "cosmos", "XMR": "monero", "ETC": "ethereum-classic",
        "SHIB": "shiba-inu", "TON": "the-open-network", "UNI": "uniswap", "NEAR": "near", "DAI": "dai",
    ]
}
