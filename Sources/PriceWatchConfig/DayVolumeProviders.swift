/// The provider types whose quotes carry the day's running volume (`Quote.dayVolume`), from
/// which the engine makes bars' volumes: Yahoo's `regularMarketVolume`, Twelve Data's
/// `volume`, Kraken's volume of today. The others report a rolling 24-hour volume (Binance,
/// Coinbase) or none (Finnhub, the replay file). `check` warns about a volume series on the
/// others; keep this list beside the decoders that fill the field.
enum DayVolumeProviders {
    static let types: Set<String> = ["yahoo", "twelvedata", "kraken"]
}
