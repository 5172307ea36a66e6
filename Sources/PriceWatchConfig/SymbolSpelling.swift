/// Whether a rule's symbol is written the way its provider writes symbols, and the spelling to
/// use when not (`pricewatch check` warns; the provider would answer "unknown symbol" at run
/// time). Only the forms every service of a type uses are checked: upper case for every real
/// service (a replay file's symbols are whatever the file says), and for Yahoo a crypto pair
/// with a dash between its two currencies (`BTC-USD`, not `BTCUSD`).
enum SymbolSpelling {
    /// The quote currencies of the crypto pairs Yahoo lists, longest first.
    static let yahooCryptoQuotes = ["USDT", "USDC", "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "BTC", "ETH"]

    /// The corrected spelling of `symbol` for a provider of `type`, and what was expected of
    /// it; nil when the symbol is in the usual form.
    static func correction(of symbol: String, providerType type: String) -> (spelling: String, expected: String)? {
        guard type != "replay" else { return nil }
        let upper = symbol.uppercased()
        var expected: [String] = []
        var spelling = symbol
        if upper != symbol {
            spelling = upper
            expected.append("upper case")
        }
        if type == "yahoo", let pair = yahooPair(upper) {
            spelling = pair
            expected.append("a crypto pair with a dash")
        }
        guard !expected.isEmpty else { return nil }
        return (spelling, expected.joined(separator: ", "))
    }

    /// `BTC-USD` for `BTCUSD`: six to nine letters, a base of three to five letters and a quote
    /// currency Yahoo lists crypto in; nil for anything else (stock tickers have at most five
    /// letters, and Yahoo's other symbols carry a `.`, `=` or `^`).
    static func yahooPair(_ symbol: String) -> String? {
        guard (6...9).contains(symbol.count), symbol.unicodeScalars.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A })
        else { return nil }
        for quote in yahooCryptoQuotes where symbol.hasSuffix(quote) {
            let base = symbol.dropLast(quote.count)
            if (3...5).contains(base.count) { return "\(base)-\(quote)" }
        }
        return nil
    }
}
