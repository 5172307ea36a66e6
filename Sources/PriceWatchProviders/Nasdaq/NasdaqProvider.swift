import PriceWatchCore

/// Nasdaq (`type = "nasdaq"`), keyless US equities and ETFs from the public API behind
/// nasdaq.com: `GET /api/quote/SYMBOL/info?assetclass=stocks` per symbol (and, for a symbol
/// not listed as a stock, once more with `assetclass=etf`), decoded by ``NasdaqDecoder``.
///
/// - The service answers datacenter clients that send a browser's headers (``requestHeaders``);
///   it documents no rate limit. A batch of up to ``maximumBatchSize`` symbols is asked with
///   that many requests at once, and the polling policy spaces batches by ``requestsPerMinute``.
/// - Its calendars (earnings, dividends with their amounts, splits) are a calendar source for
///   event rules (`NasdaqProvider+Calendar.swift`).
/// - It serves US-listed symbols as Nasdaq writes them (``serves(_:)``: `AAPL`, `BRK.B`), so as
///   a fallback it is asked only for those: crypto pairs, indices, currencies and foreign
///   listings (`BTC-USD`, `^GSPC`, `EURUSD=X`, `SAP.DE`) go to the next fallback.
public struct NasdaqProvider: QuoteProvider, ProviderLimits {
    /// Symbols asked at once, one request each.
    public static let maximumBatchSize = 10
    /// Batches a minute: at most 120 requests a minute, well under what the site's own pages send.
    public static let requestsPerMinute = 12
    public static let defaultBaseURL = "https://api.nasdaq.com"

    public let name: String
    public var maximumBatchSize: Int { Self.maximumBatchSize }
    public var requestsPerMinute: Double? { Double(Self.requestsPerMinute) }
    let transport: any HTTPTransport
    let baseURL: String
    let timeout: Duration
    /// Today's date for the calendars (``events(forEach:)``).
    let now: WallClock

    public init(name: String, transport: any HTTPTransport, baseURL: String? = nil, timeout: Duration = .seconds(10),
                now: @escaping WallClock = SystemWallClock.now) {
        self.name = name
        self.transport = transport
        self.baseURL = URLText.trimmedBase(baseURL ?? Self.defaultBaseURL)
        self.timeout = timeout
        self.now = now
    }

    /// What nasdaq.com's own pages send; without a browser's `User-Agent` the API does not answer.
    public static let requestHeaders = [
        HTTPHeader("Accept", "application/json, text/plain, */*"),
        HTTPHeader("Accept-Language", "en-US,en;q=0.9"),
        HTTPHeader("Origin", "https://www.nasdaq.com"),
        HTTPHeader("Referer", "https://www.nasdaq.com/"),
        HTTPHeader("User-Agent", YahooProvider.defaultUserAgent),
    ]

    /// Whether `symbol` is written as a US listing: 1 to 5 capital letters, optionally a class
    /// after a dot or a dash (`BRK.B`, `BF-B`).
    public func serves(_ symbol: String) -> Bool { Self.isUSListing(symbol) }

    static func isUSListing(_ symbol: String) -> Bool {
        let bytes = Array(symbol.utf8)
        let isLetter = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        var root = bytes[...]
        if bytes.count >= 3, bytes[bytes.count - 2] == UInt8(ascii: ".") || bytes[bytes.count - 2] == UInt8(ascii: "-"),
           let last = bytes.last, isLetter(last) {
            root = bytes[..<(bytes.count - 2)]
        }
        return (1...5).contains(root.count) && root.allSatisfy(isLetter)
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        // Every request of the batch at once; the first whole-request failure fails the batch.
        let results = await withTaskGroup(of: (String, Result<Result<Quote, ProviderError>, ProviderError>).self) { group in
            for symbol in Set(symbols) {
                group.addTask {
                    do throws(ProviderError) {
                        return (symbol, .success(try await quote(symbol)))
                    } catch {
                        return (symbol, .failure(error))
                    }
                }
            }
            var collected: [(String, Result<Result<Quote, ProviderError>, ProviderError>)] = []
            for await result in group { collected.append(result) }
            return collected
        }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        var failure: ProviderError?
        for (symbol, result) in results.sorted(by: { $0.0 < $1.0 }) {
            switch result {
            case .success(let answer): answers[symbol] = answer
            case .failure(let error): failure = failure ?? error
            }
        }
        if let failure, answers.isEmpty { throw failure }
        return answers
    }

    /// One symbol: as a stock, then as an ETF when Nasdaq does not list it as a stock.
    private func quote(_ symbol: String) async throws(ProviderError) -> Result<Quote, ProviderError> {
        var said = ""
        for assetClass in ["stocks", "etf"] {
            let request = HTTPRequest(url: "\(baseURL)/api/quote/\(URLText.encode(symbol))/info?assetclass=\(assetClass)",
                                      headers: Self.requestHeaders, timeout: timeout)
            let response = try await ProviderAnswer.send(request, through: transport, endpoint: "\(NasdaqDecoder.endpoint) for \(symbol)")
            switch try NasdaqDecoder.decode(response, symbol: symbol) {
            case .success(.quote(let quote)): return .success(quote)
            case .success(.notListed(let message)): said = message
            case .failure(let error): return .failure(error)
            }
        }
        return .failure(ProviderError(.unknownSymbol, "nasdaq lists no stock or ETF \(ControlCharacters.quoted(symbol)) (\(said))"))
    }
}
