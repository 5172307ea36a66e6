import PriceWatchCore

extension NasdaqProvider: CompanyCalendarSource {
    /// Weekdays of the earnings calendar read, from today (two weeks).
    public static let earningsWeekdays = 10

    /// The source's name on events: `nasdaq`.
    public var calendarName: String { NasdaqCalendarDecoder.source }

    /// US listings only, as for quotes.
    public func lists(_ symbol: String) -> Bool { Self.isUSListing(symbol) }

    public func events(for symbol: String) async throws(ProviderError) -> [CompanyEvent] {
        switch await events(forEach: [symbol])[symbol] {
        case .success(let events): return events
        case .failure(let error): throw error
        case nil: throw ProviderError(.transient, "\(NasdaqCalendarDecoder.source) calendar for \(symbol): not read (stopped)")
        }
    }

    /// The calendars of several symbols (``NasdaqCalendarDecoder``): the earnings calendar of
    /// each of the next ``earningsWeekdays`` weekdays and the splits calendar, once for all of
    /// them, then each symbol's dividends (as a stock, then as an ETF when Nasdaq does not list
    /// it as a stock). A failed market-wide calendar fails every symbol; a failed dividends
    /// read fails its symbol. One request at a time.
    public func events(forEach symbols: [String]) async -> [String: Result<[CompanyEvent], ProviderError>] {
        let wanted = Set(symbols)
        var shared: [CompanyEvent] = []
        var sharedFailure: ProviderError?
        do throws(ProviderError) {
            var day = CivilDate(utcDateOf: now())
            var read = 0
            while read < Self.earningsWeekdays {
                defer { day = day.adding(days: 1) }
                guard day.weekday != .saturday, day.weekday != .sunday else { continue }
                read += 1
                if Task.isCancelled { return [:] }
                let response = try await calendarAnswer("/api/calendar/earnings?date=\(day)", endpoint: "\(NasdaqCalendarDecoder.earningsEndpoint) of \(day)")
                shared += try NasdaqCalendarDecoder.earnings(response, day: day, symbols: wanted)
            }
            if Task.isCancelled { return [:] }
            let splits = try await calendarAnswer("/api/calendar/splits", endpoint: NasdaqCalendarDecoder.splitsEndpoint)
            shared += try NasdaqCalendarDecoder.splits(splits, symbols: wanted)
        } catch {
            sharedFailure = error
        }
        var results: [String: Result<[CompanyEvent], ProviderError>] = [:]
        for symbol in symbols where results[symbol] == nil {
            if Task.isCancelled { break }
            if let sharedFailure {
                results[symbol] = .failure(sharedFailure)
                continue
            }
            do throws(ProviderError) {
                let dividends = try await dividends(of: symbol)
                results[symbol] = .success((shared.filter { $0.symbol == symbol } + dividends).sorted { $0.date < $1.date })
            } catch {
                results[symbol] = .failure(error)
            }
        }
        return results
    }

    private func dividends(of symbol: String) async throws(ProviderError) -> [CompanyEvent] {
        for assetClass in ["stocks", "etf"] {
            let response = try await calendarAnswer("/api/quote/\(URLText.encode(symbol))/dividends?assetclass=\(assetClass)",
                                                    endpoint: "\(NasdaqCalendarDecoder.dividendsEndpoint) for \(symbol)")
            if case .events(let events) = try NasdaqCalendarDecoder.dividends(response, symbol: symbol) { return events }
        }
        // Listed neither as a stock nor as an ETF: Nasdaq knows no dividend of it.
        return []
    }

    private func calendarAnswer(_ path: String, endpoint: String) async throws(ProviderError) -> HTTPResponse {
        let request = HTTPRequest(url: baseURL + path, headers: Self.requestHeaders, timeout: timeout)
        return try await ProviderAnswer.send(request, through: transport, endpoint: endpoint)
    }
}
