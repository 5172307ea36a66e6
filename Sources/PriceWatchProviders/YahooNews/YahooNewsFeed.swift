import PriceWatchCore

/// Yahoo Finance's per-symbol headline feed, keyless: one request per symbol,
/// `GET BASE/rss/2.0/headline?s=AAPL&region=US&lang=en-US` (RSS 2.0), decoded by
/// ``YahooNewsFeedDecoder``.
///
/// - The request carries the headers of every Yahoo request (``YahooProvider/requestHeaders(userAgent:accept:)``:
///   a browser's `User-Agent`, without which Yahoo answers 429), asking for RSS.
/// - The answer's body is bounded by ``YahooNewsFeedDecoder/maximumBodyBytes`` (the transport
///   stops reading beyond it); redirects are not followed, as for Yahoo's quote API.
/// - A non-success status is an error by ``ProviderAnswer/failure(_:endpoint:detail:)`` (429 and
///   5xx are retryable); every error's message starts with `yahoo news feed for SYMBOL: `.
public struct YahooNewsFeed: Sendable {
    /// The feed's host; `base_url`-style overrides (a mirror, a test server) replace it.
    public static let defaultBaseURL = "https://feeds.finance.yahoo.com"
    /// What the feed is called in messages and output: `yahoo`.
    public static let name = "yahoo"

    let transport: any HTTPTransport
    let baseURL: String
    let headers: [HTTPHeader]
    let timeout: Duration

    /// - Parameters:
    ///   - baseURL: the feed's scheme and host (and path prefix); default ``defaultBaseURL``.
    ///   - userAgent: the `User-Agent` sent; default Yahoo's browser one (``YahooProvider/defaultUserAgent``).
    public init(transport: any HTTPTransport, baseURL: String? = nil, userAgent: String? = nil, timeout: Duration = .seconds(10)) {
        self.transport = transport
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.headers = YahooProvider.requestHeaders(userAgent: userAgent, accept: "application/rss+xml, application/xml, text/xml")
        self.timeout = timeout
    }

    /// The feed's address for `symbol`, percent-encoded.
    public func url(for symbol: String) -> String {
        "\(baseURL)/rss/2.0/headline?s=\(URLText.encode(symbol))&region=US&lang=en-US"
    }

    /// The headlines the feed lists for `symbol` now, in the feed's order (each story once).
    /// An unknown symbol is a valid feed without items: no headlines, no error.
    public func headlines(for symbol: String) async throws(ProviderError) -> [NewsHeadline] {
        let endpoint = "yahoo news feed for \(symbol)"
        let request = HTTPRequest(url: url(for: symbol), headers: headers, timeout: timeout,
                                  maximumResponseBytes: YahooNewsFeedDecoder.maximumBodyBytes)
        let response = try await ProviderAnswer.send(request, through: transport, endpoint: endpoint)
        guard (200...299).contains(response.status) else {
            throw ProviderAnswer.failure(response, endpoint: endpoint)
        }
        return try YahooNewsFeedDecoder.decode(response.body, symbol: symbol)
    }
}

extension YahooNewsFeed: HeadlineSource {
    /// The feed's name in notifications: `yahoo`.
    public var name: String { Self.name }
}
