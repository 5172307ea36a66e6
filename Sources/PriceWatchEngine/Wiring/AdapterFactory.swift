import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchSinks

/// Builds the providers and sinks a configuration names. The only place that maps a
/// configured `type` to an adapter.
public enum AdapterFactory {
    /// One provider per `[providers.NAME]`, or the diagnostics of what could not be built
    /// (a replay file with malformed rows, say).
    public static func providers(for configuration: Configuration) -> (providers: [String: any QuoteProvider], diagnostics: [Diagnostic]) {
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
            default:
                diagnostics.append(.error("providers.\(settings.name): provider type '\(settings.type)' is not supported by this build", path: configuration.mainFile))
            }
        }
        return (providers, diagnostics)
    }

    /// One sink per `[sinks.NAME]`.
    ///
    /// - Parameters:
    ///   - mailTransport: how `email` sinks submit messages (libcurl's SMTP unless a test says).
    ///   - now: the wall clock `email` sinks date their messages by.
    public static func sinks(for configuration: Configuration, mailTransport: any MailTransport = CurlMailTransport(),
                             now: @escaping @Sendable () -> Timestamp = AdapterFactory.wallClock)
        -> (sinks: [String: any NotificationSink], diagnostics: [Diagnostic]) {
        var sinks: [String: any NotificationSink] = [:]
        var diagnostics: [Diagnostic] = []
        for settings in configuration.sinks {
            switch settings.type {
            case "stdout":
                sinks[settings.name] = StdoutSink(name: settings.name, format: settings.format == "json" ? .json : .text)
            case "email":
                let (email, problems) = EmailSettings.parse(settings.options)
                if let email {
                    sinks[settings.name] = EmailSink(name: settings.name, settings: email, transport: mailTransport, now: now)
                }
                diagnostics += problems.map { .error("sinks.\(settings.name).\($0)", path: configuration.mainFile) }
            default:
                diagnostics.append(.error("sinks.\(settings.name): sink type '\(settings.type)' is not supported by this build", path: configuration.mainFile))
            }
        }
        return (sinks, diagnostics)
    }

    /// The system clock as a ``Timestamp``.
    @Sendable
    public static func wallClock() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
