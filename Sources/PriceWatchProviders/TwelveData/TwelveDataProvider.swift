import PriceWatchCore

/// Twelve Data (`type = "twelvedata"`): equities, ETFs, currencies and crypto; needs `api_key`,
/// sent as `Authorization: apikey KEY` so it never appears in a URL.
///
/// `/quote?symbol=A,B`: every symbol costs one API credit and the free tier has 8 a minute, so
/// a batch holds 8 symbols and one request a minute spends the whole allowance.
public struct TwelveDataProvider: QuoteProvider, ProviderLimits {
    /// 8 symbols: the free tier's credits a minute (the API takes up to 120 per request).
    public static let maximumBatchSize = 8
    /// One full batch a minute (8 credits).
    public static let requestsPerMinute = 1
    public static let defaultBaseURL = "https://api.twelvedata.com"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    /// The documented rate as the polling policy reads it from any provider.
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    private let transport: any HTTPTransport
    private let baseURL: String
    private let apiKey: String
    private let timeout: Duration

    public init(name: String, transport: any HTTPTransport, apiKey: String, baseURL: String? = nil,
                timeout: Duration = .seconds(10)) {
        self.name = name
        self.transport = transport
        self.apiKey = apiKey
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.timeout = timeout
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        guard !symbols.isEmpty else { return [:] }
        let request = HTTPRequest(url: "\(baseURL)/quote?symbol=\(symbols.map(URLText.encode).joined(separator: ","))",
                                  headers: [HTTPHeader("Authorization", "apikey \(apiKey)"), HTTPHeader("Accept", "application/json")],
                                  timeout: timeout, redactions: [apiKey])
        let response = try await ProviderAnswer.send(request, through: transport, endpoint: TwelveDataDecoder.endpoint)
        return try TwelveDataDecoder.decode(response, requested: symbols)
    }
}
