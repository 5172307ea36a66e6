import PriceWatchCore

/// Yahoo Finance (`type = "yahoo"`), keyless: equities, ETFs, indices, crypto (`BTC-USD`) and
/// currencies (`EURUSD=X`).
///
/// - Batches go to `/v7/finance/quote?symbols=A,B&crumb=…` with the cookie and crumb of a
///   ``YahooSession``; on HTTP 401 (`Invalid Crumb` / `Invalid Cookie`) the session is
///   renewed once and the same request sent again.
/// - When the v7 batch fails for any reason but a rate limit or a network failure (a second
///   401, 403, 5xx, a malformed or HTML answer, no crumb), each symbol of the batch is fetched
///   from `/v8/finance/chart/SYMBOL` instead, one request per symbol, in order; a rate limit or
///   network failure there ends the fallback. When no symbol gets a quote from the chart
///   either, and not because every one is unknown, the batch fails as a whole (the polling
///   policy then retries it and asks the provider's fallbacks).
/// - A symbol missing from the v7 answer is `unknownSymbol`, as is a chart 404.
/// - Search: `/v1/finance/search?q=` (no session needed).
public struct YahooProvider: QuoteProvider, SymbolSearching, ProviderLimits {
    /// 50 symbols per v7 request: Yahoo documents no maximum; 30 and more are seen in use.
    public static let maximumBatchSize = 50
    /// Yahoo documents no limit; reports of blocks start near 2,000 requests an hour.
    public static let requestsPerMinute = 30
    public static let defaultBaseURL = "https://query1.finance.yahoo.com"
    public static let defaultSessionURL = "https://fc.yahoo.com"
    /// Yahoo answers 429 to clients that do not look like a browser, whatever their rate.
    public static var defaultUserAgent: String { schema.field("user_agent")?.defaultValue?.stringValue ?? "" }

    /// The headers of every request to Yahoo, the quote API's and the news feed's
    /// (``YahooNewsFeed``): a browser's `User-Agent` (``defaultUserAgent`` unless `user_agent`
    /// names another) and `Accept`. Kept in this one place so every Yahoo client sends the same.
    public static func requestHeaders(userAgent: String? = nil, accept: String = "application/json") -> [HTTPHeader] {
        [HTTPHeader("User-Agent", userAgent ?? defaultUserAgent), HTTPHeader("Accept", accept)]
    }

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    /// The documented rate as the polling policy reads it from any provider.
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    let transport: any HTTPTransport
    let baseURL: String
    let headers: [HTTPHeader]
    let timeout: Duration
    private let now: WallClock
    /// Waits for the rate budget of one more request (``ProviderRequestBudget``): each request
    /// of the chart fallback draws from it, as the v7 batch drew from the poller's.
    private let budget: @Sendable () async throws -> Void
    let session: YahooSession

    /// - Parameters:
    ///   - baseURL: `base_url`; default `https://query1.finance.yahoo.com`.
    ///   - sessionURL: `session_url`; default `https://fc.yahoo.com`, or `base_url` itself
    ///     when only `base_url` is set (a mirror or test server serves both).
    ///   - budget: waits until one more request may be sent (the daemon's rate limit of this
    ///     provider); by default, at once.
    public init(name: String, transport: any HTTPTransport, baseURL: String? = nil, sessionURL: String? = nil,
                userAgent: String? = nil, timeout: Duration = .seconds(10), now: @escaping WallClock = SystemWallClock.now,
                budget: @escaping @Sendable () async throws -> Void = {}) {
        self.name = name
        self.transport = transport
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.headers = Self.requestHeaders(userAgent: userAgent)
        self.timeout = timeout
        self.now = now
        self.budget = budget
        self.session = YahooSession(transport: transport,
                                    sessionURL: sessionURL ?? (baseURL.map { URLText.trimmedBase($0) + "/" } ?? Self.defaultSessionURL),
                                    baseURL: self.baseURL, headers: headers, timeout: timeout)
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        guard !symbols.isEmpty else { return [:] }
        do throws(BatchFailure) {
            return try await fetchBatch(symbols)
        } catch {
            switch error {
            case .final(let error): throw error
            case .fallback(let error): return try await fetchCharts(symbols, afterBatchFailure: error)
            }
        }
    }

    public func search(_ query: String) async throws(ProviderError) -> [SymbolMatch] {
        let url = "\(baseURL)/v1/finance/search?q=\(URLText.encode(query))&quotesCount=10&newsCount=0&listsCount=0"
        let response = try await ProviderAnswer.send(HTTPRequest(url: url, headers: headers, timeout: timeout),
                                                     through: transport, endpoint: YahooSearchDecoder.endpoint)
        return try YahooSearchDecoder.decode(response)
    }

    /// Why the v7 batch failed: whether the chart fallback may help.
    private enum BatchFailure: Error {
        /// A rate limit, or the quote host unreachable: the chart (same host) cannot help.
        case final(ProviderError)
        /// Anything else: no session, a rejected crumb, a server error, a malformed answer.
        case fallback(ProviderError)
    }

    /// The v7 batch, with one session renewal on 401.
    private func fetchBatch(_ symbols: [String]) async throws(BatchFailure) -> [String: Result<Quote, ProviderError>] {
        var credentials = try await sessionCredentials(replacing: nil)
        var response = try await sendBatch(symbols, credentials)
        if YahooErrorDecoder.rejectsSession(response) {
            credentials = try await sessionCredentials(replacing: credentials)
            response = try await sendBatch(symbols, credentials)
        }
        do throws(ProviderError) {
            return try YahooQuoteDecoder.decode(response, requested: symbols)
        } catch {
            throw error.kind == .rateLimited ? .final(error) : .fallback(error)
        }
    }

    /// The session's credentials, or new ones in place of `stale`.
    private func sessionCredentials(replacing stale: YahooCredentials?) async throws(BatchFailure) -> YahooCredentials {
        do throws(ProviderError) {
            if let stale { return try await session.refresh(replacing: stale) }
            return try await session.credentials()
        } catch {
            // The session host may be down while the chart works: only a rate limit is final.
            throw error.kind == .rateLimited ? .final(error) : .fallback(error)
        }
    }

    private func sendBatch(_ symbols: [String], _ credentials: YahooCredentials) async throws(BatchFailure) -> HTTPResponse {
        let list = symbols.map(URLText.encode).joined(separator: ",")
        let url = "\(baseURL)/v7/finance/quote?symbols=\(list)&crumb=\(URLText.encode(credentials.crumb))"
        var headers = self.headers
        if let cookie = credentials.cookie { headers.append(HTTPHeader("Cookie", cookie)) }
        let request = HTTPRequest(url: url, headers: headers, timeout: timeout, redactions: credentials.cookie.map { [$0] } ?? [])
        do {
            return try await transport.send(request)
        } catch {
            throw .final(ProviderAnswer.failure(error, endpoint: YahooQuoteDecoder.endpoint))
        }
    }

    /// Chart requests in flight at once when the chart stands in for v7.
    public static let chartConcurrency = 4

    /// One chart request per symbol after the v7 batch failed with `batchError`, up to
    /// ``chartConcurrency`` at once, in the batch's order, each drawing one request from the
    /// rate budget before it is sent (the v7 request drew the batch's); a rate limit or a
    /// network failure ends the fallback after the requests already in flight (the rest get
    /// that error).
    private func fetchCharts(_ symbols: [String], afterBatchFailure batchError: ProviderError) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        var answers: [String: Result<Quote, ProviderError>] = [:]
        var start = symbols.startIndex
        while start < symbols.endIndex {
            let chunk = Array(symbols[start..<min(start + Self.chartConcurrency, symbols.endIndex)])
            do {
                for _ in chunk { try await budget() }
            } catch {
                throw ProviderError(.transient, "\(batchError.message); chart fallback: stopped while waiting for the rate limit")
            }
            let results = await withTaskGroup(of: (String, Result<Quote, ProviderError>, Bool).self) { group in
                for symbol in chunk {
                    group.addTask { await chart(symbol) }
                }
                var collected: [String: (Result<Quote, ProviderError>, Bool)] = [:]
                for await (symbol, answer, ends) in group { collected[symbol] = (answer, ends) }
                return collected
            }
            var stop: ProviderError?
            for symbol in chunk {
                guard let (answer, ends) = results[symbol] else { continue }
                answers[symbol] = answer
                if case .failure(let error) = answer, ends || error.kind == .rateLimited, stop == nil { stop = error }
            }
            start += chunk.count
            if let stop {
                // The fallback cannot go on: without any answer, the batch failed.
                if answers.values.allSatisfy({ if case .failure = $0 { true } else { false } }) {
                    throw ProviderError(stop.kind, "\(batchError.message); chart fallback: \(stop.message)",
                                        retryAfterSeconds: stop.retryAfterSeconds)
                }
                for rest in symbols[start...] { answers[rest] = .failure(stop) }
                return answers
            }
        }
        // No quote, and not because every symbol is unknown: the chart failed as the quote did,
        // and the batch failed (so the polling policy retries it and asks the fallbacks).
        let failures = answers.values.compactMap { answer -> ProviderError? in
            if case .failure(let error) = answer { error } else { nil }
        }
        if failures.count == answers.count, let failure = failures.first(where: { $0.kind != .unknownSymbol }) {
            throw ProviderError(failure.kind, "\(batchError.message); chart fallback: \(failure.message)",
                                retryAfterSeconds: failure.retryAfterSeconds)
        }
        return answers
    }

    /// One symbol's chart: its quote or error, and whether the failure ends the fallback (the
    /// host could not be reached).
    private func chart(_ symbol: String) async -> (String, Result<Quote, ProviderError>, Bool) {
        let url = "\(baseURL)/v8/finance/chart/\(URLText.encode(symbol))?range=1d&interval=1d"
        do {
            let response = try await transport.send(HTTPRequest(url: url, headers: headers, timeout: timeout))
            return (symbol, YahooChartDecoder.decode(response, symbol: symbol, now: now()), false)
        } catch {
            return (symbol, .failure(ProviderAnswer.failure(error, endpoint: YahooChartDecoder.endpoint)), true)
        }
    }
}
