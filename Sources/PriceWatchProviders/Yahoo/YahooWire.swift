import PriceWatchCore

/// Yahoo Finance's answers as typed structures: only the fields the decoders read, each a
/// ``JSONField`` so that one odd value fails its symbol only. Unknown fields are skipped
/// without being decoded (a v7 quote entry has some eighty of them).
enum YahooWire {
    /// `/v7/finance/quote`: `{"quoteResponse": {"result": [entry, …], "error": …}}`.
    struct QuoteAnswer: Decodable {
        struct Response: Decodable {
            let result: Lenient<[Lenient<QuoteEntry>]>?
        }
        let quoteResponse: Lenient<Response>?
    }

    /// One v7 quote entry.
    struct QuoteEntry: Decodable {
        let symbol: JSONField<String>?
        let currency: JSONField<String>?
        let priceHint: JSONField<JSONNumber>?
        let regularMarketPrice: JSONField<JSONNumber>?
        let regularMarketTime: JSONField<JSONNumber>?
        let regularMarketPreviousClose: JSONField<JSONNumber>?
        let regularMarketVolume: JSONField<JSONNumber>?
        let exchange: JSONField<String>?
        let marketState: JSONField<String>?
        let exchangeTimezoneName: JSONField<String>?
    }

    /// `/v8/finance/chart/SYMBOL`: `{"chart": {"result": [{"meta": {…}, …}], "error": …}}`.
    struct ChartAnswer: Decodable {
        struct Chart: Decodable {
            let result: Lenient<[Lenient<ChartResult>]>?
        }
        struct ChartResult: Decodable {
            let meta: Lenient<ChartMeta>?
        }
        let chart: Lenient<Chart>?
    }

    /// A chart's `meta`: the quote of the fallback.
    struct ChartMeta: Decodable {
        let currency: JSONField<String>?
        let priceHint: JSONField<JSONNumber>?
        let regularMarketPrice: JSONField<JSONNumber>?
        let regularMarketTime: JSONField<JSONNumber>?
        let previousClose: JSONField<JSONNumber>?
        let chartPreviousClose: JSONField<JSONNumber>?
        let regularMarketVolume: JSONField<JSONNumber>?
        let exchangeName: JSONField<String>?
        let exchangeTimezoneName: JSONField<String>?
        let currentTradingPeriod: Lenient<TradingPeriods>?
    }

    /// `currentTradingPeriod`: `pre`, `regular` and `post`, each with `start` and `end`.
    struct TradingPeriods: Decodable {
        struct Period: Decodable {
            let start: JSONField<JSONNumber>?
            let end: JSONField<JSONNumber>?
        }
        let pre: Lenient<Period>?
        let regular: Lenient<Period>?
        let post: Lenient<Period>?
    }

    /// `/v1/finance/search`: `{"quotes": [{symbol, longname, shortname, exchange, quoteType}]}`.
    struct SearchAnswer: Decodable {
        struct Match: Decodable {
            let symbol: JSONField<String>?
            let longname: JSONField<String>?
            let shortname: JSONField<String>?
            let exchange: JSONField<String>?
            let quoteType: JSONField<String>?
        }
        let quotes: Lenient<[Lenient<Match>]>?
    }

    /// The error envelopes: `{"finance"|"chart"|"quoteSummary"|"quoteResponse": {"error": {"code", "description"}}}`.
    struct ErrorAnswer: Decodable {
        struct Holder: Decodable {
            let error: Lenient<Body>?
        }
        struct Body: Decodable {
            let code: JSONField<String>?
            let description: JSONField<String>?
        }
        let finance: Lenient<Holder>?
        let chart: Lenient<Holder>?
        let quoteSummary: Lenient<Holder>?
        let quoteResponse: Lenient<Holder>?
    }
}
