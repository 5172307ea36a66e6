import PriceWatchCore

/// Finnhub (`type = "finnhub"`): US equities on the free tier; needs `api_key`.
///
/// One symbol per request (`/quote?symbol=`), the key in the `X-Finnhub-Token` header so it
/// never appears in a URL; `/search?q=` for search. No currency, exchange or market state in
/// the answer.
public struct FinnhubProvider: QuoteProvider, SymbolSearching, ProviderLimits {
    /// Finnhub has no batch quote.
    public static let maximumBatchSize = 1
    /// Free tier: 60 calls a minute (and at most 30 a second).
    public static let requestsPerMinute = 60
    public static let defaultBaseURL = "https://finnhub.io/api/v1"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    /// The documented rate as the polling policy reads it from any provider.
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    private let transport: any HTTPTransport
    private let baseURL: String
    private let apiKey: String
    private let timeout: Duration
    /// The wall clock (the earnings calendar asks from today).
    let now: WallClock

    public init(name: String, transport: any HTTPTransport, apiKey: String, baseURL: String? = nil,
                timeout: Duration = .seconds(10), now: @escaping WallClock = SystemWallClock.now) {
        self.now = now
        self.name = name
        self.transport = transport
        self.apiKey = apiKey
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.timeout = timeout
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        var answers: [String: Result<Quote, ProviderError>] = [:]
        // The poller sends one symbol; more (from a caller that ignores the batch size) go one by one.
        for symbol in symbols {
            let response = try await send("/quote?symbol=\(URLText.encode(symbol))", endpoint: FinnhubDecoder.quoteEndpoint)
            answers[symbol] = try FinnhubDecoder.quote(response, symbol: symbol)
        }
        return answers
    }

    public func search(_ query: String) async throws(ProviderError) -> [SymbolMatch] {
        try FinnhubDecoder.search(try await send("/search?q=\(URLText.encode(query))", endpoint: FinnhubDecoder.searchEndpoint))
    }

    func send(_ pathAndQuery: String, endpoint: String) async throws(ProviderError) -> HTTPResponse {
        let request = HTTPRequest(url: baseURL + pathAndQuery,
                                  headers: [HTTPHeader("X-Finnhub-Token", apiKey), HTTPHeader("Accept", "application/json")],
                                  timeout: timeout, redactions: [apiKey])
        return try await ProviderAnswer.send(request, through: transport, endpoint: endpoint)
    }
}
