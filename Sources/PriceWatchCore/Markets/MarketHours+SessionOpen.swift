extension MarketHours {
    /// The open of the regular session `instant` lies in (a lunch break included), nil outside
    /// any session or when the calendar cannot tell. This default knows none; calendars that
    /// know their sessions (``MarketCalendars``) answer.
    public func regularSessionOpen(of market: MarketIdentifier, at instant: Timestamp) -> Timestamp? { nil }
}

extension MarketHours {
    /// Where each instant lies for the bars of `symbol` (``BarHistory/bars(from:timeframe:limit:placement:)``):
    /// in a regular session of `named` (a rule's `market`, else the calendars' market of the
    /// symbol), outside every session, or on no known market (bars aligned to UTC) when the
    /// calendars know neither the market nor its zone. The engine's warm-up, the rules and
    /// watch views and the charts group candles into bars through this one placement.
    public func barPlacement(ofSymbol symbol: String, market named: MarketIdentifier?) -> (Timestamp) -> BarHistory.SessionPlacement {
        let market = (named ?? market(ofSymbol: symbol, exchange: nil)).flatMap { timeZone(of: $0) == nil ? nil : $0 }
        return { time in
            guard let market else { return .unknownMarket }
            return regularSessionOpen(of: market, at: time).map { .inSession(open: $0) } ?? .outsideSession
        }
    }
}
