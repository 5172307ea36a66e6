import PriceWatchCore

extension YahooProvider: CompanyCalendarSource {
    /// The source's name on events: `yahoo`.
    public var calendarName: String { YahooCalendarDecoder.source }

    /// The symbol's calendar from `/v10/finance/quoteSummary/SYMBOL?modules=calendarEvents`
    /// with the provider's cookie and crumb (``YahooCalendarDecoder``); the session is renewed
    /// once when Yahoo rejects it.
    public func events(for symbol: String) async throws(ProviderError) -> [CompanyEvent] {
        var credentials = try await session.credentials()
        var response = try await sendCalendar(symbol, credentials)
        if YahooErrorDecoder.rejectsSession(response) {
            credentials = try await session.refresh(replacing: credentials)
            response = try await sendCalendar(symbol, credentials)
        }
        return try YahooCalendarDecoder.decode(response, symbol: symbol)
    }

    private func sendCalendar(_ symbol: String, _ credentials: YahooCredentials) async throws(ProviderError) -> HTTPResponse {
        let url = "\(baseURL)/v10/finance/quoteSummary/\(URLText.encode(symbol))?modules=calendarEvents&crumb=\(URLText.encode(credentials.crumb))"
        var headers = self.headers
        if let cookie = credentials.cookie { headers.append(HTTPHeader("Cookie", cookie)) }
        let request = HTTPRequest(url: url, headers: headers, timeout: timeout, redactions: credentials.cookie.map { [$0] } ?? [])
        return try await ProviderAnswer.send(request, through: transport, endpoint: "\(YahooCalendarDecoder.endpoint) for \(symbol)")
    }
}
