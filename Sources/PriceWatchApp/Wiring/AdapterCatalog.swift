import PriceWatchCore
import PriceWatchProviders
import PriceWatchSinks
import PriceWatchSystemd

/// Every provider and sink type this build has: the one registry that both the configuration
/// loader (through ``schemas``) and the wiring (``AdapterFactory``) use. Each kind declares
/// its schema and its factory beside its adapter; adding a type is its own folder and one
/// line here. The order is the order messages list the types in.
public enum AdapterCatalog {
    public static let providers: [ProviderKind] = [
        ReplayProvider.kind,
        YahooProvider.kind,
        FinnhubProvider.kind,
        TwelveDataProvider.kind,
        CoinbaseProvider.kind,
        BinanceProvider.kind,
        KrakenProvider.kind,
        CoinGeckoProvider.kind,
        NasdaqProvider.kind,
    ]

    public static let sinks: [SinkKind] = [
        StdoutSink.kind,
        WebhookSink.kind,
        EmailSink.kind,
        TelegramSink.kind,
        PushoverSink.kind,
        GotifySink.kind,
        MatrixSink.kind,
        DesktopNotificationSink.kind,
        MQTTSink.kind,
    ]

    /// What the configuration loader accepts.
    public static var schemas: AdapterSchemas {
        AdapterSchemas(providers: providers.map(\.schema), sinks: sinks.map(\.schema))
    }

    public static func provider(type: String) -> ProviderKind? { providers.first { $0.type == type } }

    public static func sink(type: String) -> SinkKind? { sinks.first { $0.type == type } }
}
