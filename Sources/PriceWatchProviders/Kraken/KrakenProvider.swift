import PriceWatchCore

/// Kraken (`type = "kraken"`), keyless crypto: symbols are Kraken pairs as written (`XBTUSD`,
/// `ETHEUR`), one per request to `/0/public/Ticker?pair=` (Kraken answers a list under its own
/// pair names, which cannot be matched back to the request without another call).
public struct KrakenProvider: QuoteProvider, ProviderLimits {
    public static let maximumBatchSize = 1
    /// Kraken's public endpoints allow about one call a second.
    public static let requestsPerMinute = 60
    public static let defaultBaseURL = "https://api.kraken.com"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    /// The documented rate as the polling policy reads it from any provider.
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    private let transport: any HTTPTransport
    private let baseURL: String
    private let timeout: Duration
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
            let request = HTTPRequest(url: "\(baseURL)/0/public/Ticker?pair=\(URLText.encode(symbol))",
                                      headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
            let response = try await ProviderAnswer.send(request, through: transport, endpoint: KrakenDecoder.endpoint)
            answers[symbol] = try KrakenDecoder.quote(response, symbol: symbol, received: now())
        }
        return answers
    }
}
