/// The symbols a watched portfolio needs polled: every symbol it holds, and one currency pair
/// (`EURUSD=X`, ``CurrencyPairSymbol``) per foreign currency of its holdings and cash, priced
/// in the home currency.
public enum PortfolioWatchlist {
    /// The symbols of `portfolio`, holdings first, each once.
    public static func symbols(of portfolio: Portfolio) -> [String] {
        let held = heldSymbols(of: portfolio)
        var foreign: [String] = []
        for symbol in held {
            if let currency = portfolio.lots.first(where: { $0.symbol == symbol })?.currency, currency != portfolio.currency,
               !foreign.contains(currency) {
                foreign.append(currency)
            }
        }
        for (currency, amount) in portfolio.cash.sorted(by: { $0.key < $1.key })
        where currency != portfolio.currency && amount.scaled != 0 && !foreign.contains(currency) {
            foreign.append(currency)
        }
        return held + foreign.map { CurrencyPairSymbol(base: $0, quote: portfolio.currency).symbol }
    }

    /// The symbols `portfolio` holds now (its lots do not add up to zero), in order of first
    /// appearance.
    public static func heldSymbols(of portfolio: Portfolio) -> [String] {
        portfolio.symbols.filter { symbol in
            portfolio.lots.filter { $0.symbol == symbol }.reduce(ExactDecimal.zero) { $0.adding($1.quantity) ?? $0 }.scaled != 0
        }
    }
}
