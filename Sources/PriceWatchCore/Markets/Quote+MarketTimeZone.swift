extension Quote {
    /// The quote with its exchange's time zone filled in from the trading calendars when the
    /// provider gave none: the zone `{{local_time}}` prints in. A zone the provider gave is
    /// kept; a symbol on no known market keeps none (and prints in UTC).
    ///
    /// - Parameter market: the rule's `market = "…"` override of the symbol's market, if any.
    public func withMarketTimeZone(from hours: any MarketHours, market override: MarketIdentifier? = nil) -> Quote {
        guard exchangeTimeZone == nil,
              let market = override ?? hours.market(ofSymbol: symbol, exchange: exchange),
              let zone = hours.timeZone(of: market) else { return self }
        var quote = self
        quote.exchangeTimeZone = zone
        return quote
    }
}
