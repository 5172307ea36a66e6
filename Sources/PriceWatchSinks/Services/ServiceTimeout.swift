import PriceWatchCore

/// The `timeout` key the Telegram, Pushover, Gotify and Matrix sinks share: declared once,
/// with its default, and put in each of their schemas.
public enum ServiceTimeout {
    /// The schema field: the deadline of one request to the service.
    public static let field = AdapterSchema.Field("timeout", .duration, default: .seconds(15), "the deadline of one request to the service")

    /// The declared default, for settings built without the loader.
    public static var defaultTimeout: Duration { field.defaultValue?.durationValue ?? .zero }

    /// The written (or filled-in) value of `options`, else the declared default.
    static func value(_ options: AdapterOptions) -> Duration {
        options.duration("timeout").map { .seconds($0.seconds) } ?? defaultTimeout
    }

    /// Why `timeout` cannot work; nil when it is above zero.
    static func problem(_ timeout: Duration) -> ServiceConfigurationError? {
        timeout > .zero ? nil : ServiceConfigurationError("timeout: expected a duration above zero, found \(timeout)")
    }
}
