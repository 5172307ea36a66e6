extension Quote {
    /// The quote with its exchange's time zone filled in from the trading calendars when the
    /// provider gave none: the zone `{{local_time}}` prints in. A zone the provider gave is
    /// kept; a symbol on no known market keeps none (and prints in UTC).
    ///
    /// - Parameter market: the rule's `market = "…"` override of the symbol's market, if any.
    public func withMarketTimeZone(from hours: any MarketHours, market override: MarketIdentifier? = nil) -> Quote {
        guard exchangeTimeZone == nil else { return self }
        return withTimeZone(of: override ?? hours.market(ofSymbol: symbol, exchange: exchange), from: hours)
    }

    /// The same with the symbol's market already resolved (`nil`: on no known market), for a
    /// caller that remembers what each symbol resolved to.
    public func withTimeZone(of market: MarketIdentifier?, from hours: any MarketHours) -> Quote {
        guard exchangeTimeZone == nil, let market, let zone = hours.timeZone(of: market) else { return self }
        var quote = self
        quote.exchangeTimeZone = zone
        return quote
    }
}
