import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders

/// `pricewatch news [SYMBOL...]`: the latest headlines per symbol from Yahoo Finance's
/// per-symbol RSS feed (``YahooNewsFeed``), fetched now, one request per symbol, no retries.
public enum LookUpNews {
    /// Headlines shown per symbol unless `--limit` says otherwise.
    public static let defaultLimit = 10

    /// The source named in the output: `yahoo`.
    public static let feedName = YahooNewsFeed.name

    /// Where the symbols come from when none is given.
    public enum ConfiguredSymbols: Sendable {
        /// The configuration has errors (given to `report`).
        case configurationFailed
        /// The symbols of the configuration's rules (price, portfolio and event rules), sorted;
        /// empty when it has none; and its `[news] base_url`, if written.
        case symbols([String], feedBaseURL: String?)
    }

    /// The symbols `pricewatch watch` lists and those of the event rules, sorted.
    /// The configuration's secrets are registered for redaction of the command's output.
    public static func configuredSymbols(configPath: String, environment: [String: String],
                                         report: ([Diagnostic]) -> Void) -> ConfiguredSymbols {
        guard let configuration = CommandConfiguration.load(configPath: configPath, environment: environment, report: report) else {
            return .configurationFailed
        }
        let symbols = Set(configuration.allSymbols).union(configuration.eventRules.flatMap(\.symbols))
        return .symbols(symbols.sorted(), feedBaseURL: configuration.news.baseURL)
    }

    /// Each of `symbols` (duplicates asked once), in order, with at most `limit` of its
    /// headlines, newest first (the feed's order among equal times), or why the feed could not
    /// be read. Every error message starts with `yahoo news feed for SYMBOL: `.
    /// - Parameters:
    ///   - baseURL: the feed's address instead of ``YahooNewsFeed/defaultBaseURL`` (a mirror, a
    ///     test server).
    ///   - transport: libcurl's unless given.
    public static func fetch(_ symbols: [String], limit: Int = defaultLimit, baseURL: String? = nil,
                             transport: (any HTTPTransport)? = nil) async
        -> [(symbol: String, answer: Result<[NewsHeadline], ProviderError>)] {
        let feed = YahooNewsFeed(transport: transport ?? CurlHTTPTransport(), baseURL: baseURL)
        var unique: [String] = []
        for symbol in symbols where !unique.contains(symbol) { unique.append(symbol) }
        var answers: [(symbol: String, answer: Result<[NewsHeadline], ProviderError>)] = []
        for symbol in unique {
            do {
                let headlines = try await feed.headlines(for: symbol)
                answers.append((symbol, .success(Array(newestFirst(headlines).prefix(max(0, limit))))))
            } catch {
                answers.append((symbol, .failure(error)))
            }
        }
        return answers
    }

    /// `headlines` sorted by publication time, newest first; equal times keep their order.
    static func newestFirst(_ headlines: [NewsHeadline]) -> [NewsHeadline] {
        headlines.enumerated()
            .sorted { $0.element.publishedAt != $1.element.publishedAt ? $0.element.publishedAt > $1.element.publishedAt : $0.offset < $1.offset }
            .map(\.element)
    }
}
