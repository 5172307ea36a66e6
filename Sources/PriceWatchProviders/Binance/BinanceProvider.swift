import PriceWatchCore

/// Binance (`type = "binance"`), keyless crypto: symbols are Binance symbols as written
/// (`BTCUSDT`, `ETHBTC`), up to 100 per request to `/api/v3/ticker/24hr?symbols=[…]`.
///
/// Binance fails a whole list when one symbol is unknown (HTTP 400, code -1121); the provider
/// then asks for each symbol of that batch alone, so the others still get quotes and the
/// unknown one is reported as such.
public struct BinanceProvider: QuoteProvider, ProviderLimits {
    /// A `symbols` list of up to 100 costs request weight 40.
    public static let maximumBatchSize = 100
    /// 6,000 request weight a minute per IP, at weight 40 per full batch.
    public static let requestsPerMinute = 150
    public static let defaultBaseURL = "https://api.binance.com"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    /// The documented rate as the polling policy reads it from any provider.
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    let transport: any HTTPTransport
    let baseURL: String
    let timeout: Duration

    public init(name: String, transport: any HTTPTransport, baseURL: String? = nil, timeout: Duration = .seconds(10)) {
        self.name = name
        self.transport = transport
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.timeout = timeout
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        guard !symbols.isEmpty else { return [:] }
        let response = try await send(symbols)
        guard symbols.count > 1, BinanceDecoder.rejectsSymbol(response) else {
            return try BinanceDecoder.decode(response, requested: symbols)
        }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        for symbol in symbols {
            answers.merge(try BinanceDecoder.decode(try await send([symbol]), requested: [symbol])) { $1 }
        }
        return answers
    }

    private func send(_ symbols: [String]) async throws(ProviderError) -> HTTPResponse {
        let query = symbols.count == 1
            ? "symbol=\(URLText.encode(symbols[0].uppercased()))"
            : "symbols=" + URLText.encode("[" + symbols.map { "\"\($0.uppercased())\"" }.joined(separator: ",") + "]")
        let request = HTTPRequest(url: "\(baseURL)/api/v3/ticker/24hr?\(query)",
                                  headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
        return try await ProviderAnswer.send(request, through: transport, endpoint: BinanceDecoder.endpoint)
    }
}
