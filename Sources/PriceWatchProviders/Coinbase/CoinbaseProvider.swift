import PriceWatchCore

/// Coinbase (`type = "coinbase"`), keyless crypto spot prices: symbols are Coinbase pairs as
/// written (`BTC-USD`, `ETH-EUR`), one per request to `/v2/prices/PAIR/spot`.
public struct CoinbaseProvider: QuoteProvider, ProviderLimits {
    /// One pair per request.
    public static let maximumBatchSize = 1
    /// Coinbase's v2 API allows 10,000 requests an hour per IP; 100 a minute stays well under.
    public static let requestsPerMinute = 100
    public static let defaultBaseURL = "https://api.coinbase.com"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    /// The documented rate as the polling policy reads it from any provider.
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    let transport: any HTTPTransport
    let baseURL: String
    let timeout: Duration
    private let now: WallClock

    public init(name: String, transport: any HTTPTransport, baseURL: String? = nil, timeout: Duration = .seconds(10),
                now: @escaping WallClock = SystemWallClock.now) {
        self.name = name
        self.transport = transport
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.timeout = timeout
        self.now = now
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        var answers: [String: Result<Quote, ProviderError>] = [:]
        for symbol in symbols {
            let request = HTTPRequest(url: "\(baseURL)/v2/prices/\(URLText.encode(symbol))/spot",
                                      headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
            let response = try await ProviderAnswer.send(request, through: transport, endpoint: CoinbaseDecoder.endpoint)
            answers[symbol] = try CoinbaseDecoder.quote(response, symbol: symbol, received: now())
        }
        return answers
    }
}
