import PriceWatchCore

extension FinnhubProvider: CompanyCalendarSource {
    /// The source's name on events: `finnhub`.
    public var calendarName: String { "finnhub" }

    /// How far ahead the earnings calendar is asked.
    public static let calendarDays = 120

    /// `symbol`'s earnings dates of the next ``calendarDays`` days from `/calendar/earnings`
    /// (``FinnhubCalendarDecoder``), with the key in the `X-Finnhub-Token` header; the
    /// earnings' timing (before the open, after the close) when Finnhub gives it.
    public func events(for symbol: String) async throws(ProviderError) -> [CompanyEvent] {
        let today = CivilDate(utcDateOf: now())
        let until = CivilDate(dayNumber: today.dayNumber + Int64(Self.calendarDays))
        let response = try await send("/calendar/earnings?from=\(today)&to=\(until)&symbol=\(URLText.encode(symbol))",
                                      endpoint: "\(FinnhubCalendarDecoder.endpoint) for \(symbol)")
        return try FinnhubCalendarDecoder.decode(response, symbol: symbol)
    }
}
