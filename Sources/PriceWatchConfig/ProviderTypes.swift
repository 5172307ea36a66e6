/// The provider types the configuration accepts, and the keys of a `[providers.NAME]` table.
enum ProviderTypes {
    /// Keys every provider accepts, whatever its type: `type`, `base_url` (a mirror, a proxy
    /// or a test server), `interval` (a duration), `api_key` (a secret), `fallback` (names
    /// of providers to use while this one fails) and `requests_per_minute` (a rate limit
    /// overriding the service's documented one).
    static let commonKeys = ["type", "base_url", "interval", "api_key", "fallback", "requests_per_minute"]

    /// One row per provider type. Real services arrive as further rows.
    static let all: [TableSchema] = [
        TableSchema(type: "replay", summary: "replays a CSV of quotes, for demos and tests", fields: [
            .init("file", .existingFile, required: true, "the CSV to replay, in the backtest format"),
        ]),
        TableSchema(type: "yahoo", summary: "Yahoo Finance, keyless: equities, funds, indices, crypto, currencies", fields: [
            .init("session_url", .url, "where the session cookie comes from (default https://fc.yahoo.com, or base_url when that is set)"),
            .init("user_agent", .string, "the User-Agent sent to Yahoo (default: a browser's; Yahoo refuses others)"),
        ]),
        TableSchema(type: "finnhub", summary: "Finnhub: US equities; needs api_key", fields: []),
        TableSchema(type: "twelvedata", summary: "Twelve Data: equities, ETFs, currencies, crypto; needs api_key", fields: []),
        TableSchema(type: "coinbase", summary: "Coinbase spot prices, keyless: pairs such as BTC-USD", fields: []),
        TableSchema(type: "binance", summary: "Binance 24-hour tickers, keyless: symbols such as BTCUSDT", fields: []),
        TableSchema(type: "kraken", summary: "Kraken tickers, keyless: pairs such as XBTUSD", fields: []),
    ]

    /// Types that cannot work without `api_key`: its absence is a configuration error.
    static let requiringAPIKey: Set<String> = ["finnhub", "twelvedata"]

    static func schema(for type: String) -> TableSchema? { all.first { $0.type == type } }

    static var typeNames: [String] { all.map(\.type) }
}
