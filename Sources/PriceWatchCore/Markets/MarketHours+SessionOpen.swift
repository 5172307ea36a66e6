extension MarketHours {
    /// The open of the regular session `instant` lies in (a lunch break included), nil outside
    /// any session or when the calendar cannot tell. This default knows none; calendars that
    /// know their sessions (``MarketCalendars``) answer.
    public func regularSessionOpen(of market: MarketIdentifier, at instant: Timestamp) -> Timestamp? { nil }
}
