import FoundationEssentials
import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders

/// Builds the providers and sinks a configuration names, with the factories of the
/// ``AdapterCatalog``.
public enum AdapterFactory {
    /// One provider per `[providers.NAME]`, or the diagnostics of what could not be built
    /// (a replay file with malformed rows, say). Real services reach the network through
    /// `transport`; `now` is the wall clock of providers whose answers carry no time; `budget`
    /// the rate budget of requests beyond one per batch (the daemon's limits).
    public static func providers(for configuration: Configuration, transport: any HTTPTransport,
                                 now: @escaping WallClock = SystemWallClock.now,
                                 budget: any ProviderRequestBudget = UnlimitedRequestBudget())
        -> (providers: [String: any QuoteProvider], diagnostics: [Diagnostic]) {
        var providers: [String: any QuoteProvider] = [:]
        var diagnostics: [Diagnostic] = []
        let context = AdapterContext(http: transport, wallClock: now, mainFile: configuration.mainFile, requestBudget: budget)
        for settings in configuration.providers {
            guard let kind = AdapterCatalog.provider(type: settings.type) else {
                diagnostics.append(.error("providers.\(settings.name): provider type '\(settings.type)' is not supported by this build", path: configuration.mainFile))
                continue
            }
            let built = kind.make(settings, context)
            diagnostics += built.diagnostics
            if let provider = built.adapter { providers[settings.name] = provider }
        }
        return (providers, diagnostics)
    }

    /// One sink per `[sinks.NAME]`. Webhook sinks send through `transport` and sign with the
    /// time of `wallClock`; email sinks submit through `mailTransport` and date their messages
    /// by `wallClock`. The daemon and the commands pass one ``NetworkTransports`` (one transfer
    /// thread); the defaults (a new libcurl loop each) are for the benchmark's one-off call.
    /// `forDaemon`: the daemon's sinks (``AdapterContext/forDaemon``), not a command's.
    public static func sinks(for configuration: Configuration, transport: any HTTPTransport = CurlHTTPTransport(),
                             mailTransport: any MailTransport = CurlMailTransport(),
                             wallClock: @escaping @Sendable () -> Timestamp = AdapterFactory.systemWallClock,
                             alertCharts: (any AlertChartProvider)? = nil, forDaemon: Bool = false)
        -> (sinks: [String: any NotificationSink], diagnostics: [Diagnostic]) {
        var sinks: [String: any NotificationSink] = [:]
        var diagnostics: [Diagnostic] = []
        let context = AdapterContext(http: transport, mail: mailTransport, wallClock: wallClock, mainFile: configuration.mainFile,
                                     alertCharts: alertCharts, urgentRules: Set(configuration.rules.filter(\.urgent).map(\.id)),
                                     forDaemon: forDaemon)
        for settings in configuration.sinks {
            guard let kind = AdapterCatalog.sink(type: settings.type) else {
                diagnostics.append(.error("sinks.\(settings.name): sink type '\(settings.type)' is not supported by this build", path: configuration.mainFile))
                continue
            }
            let built = kind.make(settings, context)
            diagnostics += built.diagnostics
            if let sink = built.adapter { sinks[settings.name] = sink }
        }
        return (sinks, diagnostics)
    }

    /// The system's wall clock, in milliseconds.
    @Sendable
    public static func systemWallClock() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
