import PriceWatchCore

/// CoinGecko (`type = "coingecko"`), keyless crypto prices from its public API: symbols are
/// pairs (`BTC-USD`, or a coin id and a currency: `unique-network-USD`, see
/// ``CoinGeckoPair``), up to 50 per request to `/api/v3/simple/price`.
///
/// The public API allows a few calls a minute (5 to 30, by load); one request serves every
/// coin and currency of a batch, so ten a minute poll 500 pairs.
public struct CoinGeckoProvider: QuoteProvider, ProviderLimits {
    /// Coin ids per request; CoinGecko's URL takes many more, this keeps it short.
    public static let maximumBatchSize = 50
    /// The public API's lower bound under load.
    public static let requestsPerMinute = 10
    public static let defaultBaseURL = "https://api.coingecko.com"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
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

    /// Pairs (`BTC-USD`); a symbol without a currency after a `-` is not CoinGecko's.
    public func serves(_ symbol: String) -> Bool { CoinGeckoPair(symbol) != nil }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        var answers: [String: Result<Quote, ProviderError>] = [:]
        var pairs: [String: CoinGeckoPair] = [:]
        for symbol in symbols {
            if let pair = CoinGeckoPair(symbol) {
                pairs[symbol] = pair
            } else {
                answers[symbol] = .failure(ProviderError(.unknownSymbol, "coingecko reads pairs such as BTC-USD, found \(ControlCharacters.quoted(symbol))"))
            }
        }
        guard !pairs.isEmpty else { return answers }
        let coins = Set(pairs.values.map(\.coin)).sorted(), currencies = Set(pairs.values.map(\.currency)).sorted()
        let query = "ids=\(URLText.encode(coins.joined(separator: ",")))&vs_currencies=\(URLText.encode(currencies.joined(separator: ",")))"
            + "&include_24hr_change=true&include_last_updated_at=true&precision=full"
        let request = HTTPRequest(url: "\(baseURL)/api/v3/simple/price?\(query)",
                                  headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
        let response = try await ProviderAnswer.send(request, through: transport, endpoint: CoinGeckoDecoder.endpoint)
        answers.merge(try CoinGeckoDecoder.decode(response, requested: pairs, received: now())) { $1 }
        return answers
    }
}
