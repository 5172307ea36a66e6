import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchSinks

/// Builds the providers and sinks a configuration names. The only place that maps a
/// configured `type` to an adapter.
public enum AdapterFactory {
    /// One provider per `[providers.NAME]`, or the diagnostics of what could not be built
    /// (a replay file with malformed rows, say). Real services reach the network through
    /// `transport`; `now` is the wall clock of providers whose answers carry no time.
    public static func providers(for configuration: Configuration, transport: any HTTPTransport,
                                 now: @escaping WallClock = SystemWallClock.now) -> (providers: [String: any QuoteProvider], diagnostics: [Diagnostic]) {
        var providers: [String: any QuoteProvider] = [:]
        var diagnostics: [Diagnostic] = []
        for settings in configuration.providers {
            switch settings.type {
            case "replay":
                guard let file = settings.file else {
                    diagnostics.append(.error("providers.\(settings.name): 'file' is required for a replay provider", path: configuration.mainFile))
                    continue
                }
                let (series, problems) = PriceSeriesFile.read(path: file)
                diagnostics += problems
                if let series { providers[settings.name] = ReplayProvider(name: settings.name, series: series) }
            case "yahoo":
                providers[settings.name] = YahooProvider(name: settings.name, transport: transport, baseURL: settings.baseURL,
                                                         sessionURL: settings.options.string("session_url"),
                                                         userAgent: settings.options.string("user_agent"), now: now)
            case "finnhub":
                guard let key = settings.apiKey else {
                    diagnostics.append(.error("providers.\(settings.name): 'api_key' is required for a finnhub provider", path: configuration.mainFile))
                    continue
                }
                providers[settings.name] = FinnhubProvider(name: settings.name, transport: transport, apiKey: key.value,
                                                           baseURL: settings.baseURL)
            case "twelvedata":
                guard let key = settings.apiKey else {
                    diagnostics.append(.error("providers.\(settings.name): 'api_key' is required for a twelvedata provider", path: configuration.mainFile))
                    continue
                }
                providers[settings.name] = TwelveDataProvider(name: settings.name, transport: transport, apiKey: key.value,
                                                              baseURL: settings.baseURL)
            case "coinbase":
                providers[settings.name] = CoinbaseProvider(name: settings.name, transport: transport, baseURL: settings.baseURL, now: now)
            case "kraken":
                providers[settings.name] = KrakenProvider(name: settings.name, transport: transport, baseURL: settings.baseURL, now: now)
            case "binance":
                providers[settings.name] = BinanceProvider(name: settings.name, transport: transport, baseURL: settings.baseURL)
            default:
                diagnostics.append(.error("providers.\(settings.name): provider type '\(settings.type)' is not supported by this build", path: configuration.mainFile))
            }
        }
        return (providers, diagnostics)
    }

    /// One sink per `[sinks.NAME]`. Webhook sinks send through `transport` and sign with the
    /// time of `wallClock`; email sinks submit through `mailTransport` and date their messages
    /// by `wallClock`. The daemon and the commands pass one ``NetworkTransports`` (one transfer
    /// thread); the defaults (a new libcurl loop each) are for the benchmark's one-off call.
    public static func sinks(for configuration: Configuration, transport: any HTTPTransport = CurlHTTPTransport(),
                             mailTransport: any MailTransport = CurlMailTransport(),
                             wallClock: @escaping @Sendable () -> Timestamp = AdapterFactory.systemWallClock)
        -> (sinks: [String: any NotificationSink], diagnostics: [Diagnostic]) {
        var sinks: [String: any NotificationSink] = [:]
        var diagnostics: [Diagnostic] = []
        for settings in configuration.sinks {
            switch settings.type {
            case "stdout":
                sinks[settings.name] = StdoutSink(name: settings.name, format: settings.format == "json" ? .json : .text)
            case "webhook":
                do {
                    sinks[settings.name] = try webhookSink(settings, transport: transport, wallClock: wallClock)
                } catch {
                    diagnostics.append(.error("sinks.\(settings.name): \(error)", path: configuration.mainFile))
                }
            case "email":
                let (email, problems) = EmailSettings.parse(settings.options)
                if let email {
                    sinks[settings.name] = EmailSink(name: settings.name, settings: email, transport: mailTransport, now: wallClock)
                }
                diagnostics += problems.map { .error("sinks.\(settings.name).\($0)", path: configuration.mainFile) }
            default:
                diagnostics.append(.error("sinks.\(settings.name): sink type '\(settings.type)' is not supported by this build", path: configuration.mainFile))
            }
        }
        return (sinks, diagnostics)
    }

    /// A `[sinks.NAME]` table of type `webhook` (keys: `SinkTypes`' webhook row).
    static func webhookSink(_ settings: SinkConfiguration, transport: any HTTPTransport,
                            wallClock: @escaping @Sendable () -> Timestamp) throws(WebhookConfigurationError) -> WebhookSink {
        let options = settings.options
        var webhook = WebhookSink.Settings(url: options.string("url") ?? "")
        webhook.format = options.string("format").flatMap(WebhookFormat.init(rawValue:)) ?? .json
        webhook.headers = (options.stringTable("headers") ?? []).map { HTTPHeader($0.key, $0.value) }
        if let timeout = options.duration("timeout") { webhook.timeout = .seconds(timeout.seconds) }
        webhook.secret = options.secret("secret")?.value
        return try WebhookSink(name: settings.name, settings: webhook, transport: transport, wallClock: wallClock)
    }

    /// The system's wall clock, in milliseconds.
    @Sendable
    public static func systemWallClock() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
