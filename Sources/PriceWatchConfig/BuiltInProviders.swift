import PriceWatchCore

/// The providers `pricewatch quote` and `pricewatch search` use when there is no
/// configuration file at all (neither `--config` nor `$PRICEWATCH_CONFIG` given, and nothing
/// at the default path): the keyless services, each named after its type, so a new user can
/// look a symbol up before writing a configuration.
///
/// Yahoo is the default: it quotes equities, funds, indices, currencies and crypto pairs
/// written as Yahoo writes them (`AAPL`, `^GSPC`, `EURUSD=X`, `BTC-USD`), and it is the only one
/// that searches. The exchanges' own prices are one `--provider` away: `coinbase` (`BTC-USD`),
/// `kraken` (`XBTUSD`) and `binance` (`BTCUSDT`), and `coingecko` (`BTC-USD`) aggregates them;
/// `nasdaq` quotes US stocks and ETFs (`AAPL`). Symbols are not routed by their shape: a
/// pair such as `BTC-USD` means the same on Yahoo and on Coinbase, and guessing would make the
/// answer depend on a heuristic the user cannot see.
///
/// `$PRICEWATCH_PROVIDER_BASE_URL` replaces the base URL of every built-in provider (a proxy
/// or mirror; the tests point it at a loopback server).
public enum BuiltInProviders {
    /// The provider asked when `--provider` is not given.
    public static let defaultName = "yahoo"
    /// The keyless provider types, in the order `--provider` lists them.
    public static let types = ["yahoo", "coinbase", "kraken", "binance", "coingecko", "nasdaq"]
    /// Where Yahoo's quotes come from when it refuses them, by symbol class.
    public static let yahooFallback = ["nasdaq", "coingecko"]
    /// The environment variable that replaces every built-in provider's base URL.
    public static let baseURLVariable = "PRICEWATCH_PROVIDER_BASE_URL"

    /// A configuration with the keyless providers, no rule and no sink.
    public static func configuration(environment: [String: String]) -> Configuration {
        let baseURL = environment[baseURLVariable].flatMap { $0.isEmpty ? nil : $0 }
        var providers = types.map { ProviderConfiguration(name: $0, type: $0, baseURL: baseURL, interval: MainSettings.defaultInterval) }
        // When Yahoo refuses: US stocks from Nasdaq, crypto pairs from CoinGecko.
        if let yahoo = providers.firstIndex(where: { $0.name == defaultName }) { providers[yahoo].fallback = yahooFallback }
        return Configuration(mainFile: "pricewatch (no configuration file, built-in providers)", statePath: "", interval: MainSettings.defaultInterval,
                             retention: MainSettings.defaultInterval, providers: providers, sinks: [], rules: [],
                             defaultProvider: defaultName)
    }
}
