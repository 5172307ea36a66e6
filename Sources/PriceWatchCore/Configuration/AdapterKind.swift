/// What a factory needs to build an adapter: the process's transports and clock, and the main
/// file (where a problem found while building is reported).
public struct AdapterContext: Sendable {
    /// HTTP for providers and webhook sinks.
    public let http: any HTTPTransport
    /// SMTP submission for email sinks (nil where no sink is built).
    public let mail: (any MailTransport)?
    /// The wall clock: providers whose answers carry no time stamp quotes with it, webhook
    /// sinks sign with it, email sinks date messages by it.
    public let wallClock: @Sendable () -> Timestamp
    /// The main file, for diagnostics.
    public let mainFile: String
    /// Pictures of alerts for sinks with `chart = true` (nil: none are drawn).
    public let alertCharts: (any AlertChartProvider)?
    /// The ids of the rules written `urgent = true`, for sinks whose service has priorities
    /// (Pushover, Gotify, Telegram's silent messages, Matrix's `m.text`).
    public let urgentRules: Set<String>
    /// Whether the adapters serve the daemon (true) or one command (`notify-test`, `check`):
    /// an mqtt sink of the daemon holds the persistent session and announces availability;
    /// one of a command must not take that session over or mark the daemon offline.
    public let forDaemon: Bool
    /// The rate budget of providers that send more than one request per batch (the daemon's
    /// per-provider limits; unlimited for commands).
    public let requestBudget: any ProviderRequestBudget

    public init(http: any HTTPTransport, mail: (any MailTransport)? = nil, wallClock: @escaping @Sendable () -> Timestamp, mainFile: String,
                alertCharts: (any AlertChartProvider)? = nil, urgentRules: Set<String> = [], forDaemon: Bool = false,
                requestBudget: any ProviderRequestBudget = UnlimitedRequestBudget()) {
        self.http = http
        self.mail = mail
        self.wallClock = wallClock
        self.mainFile = mainFile
        self.alertCharts = alertCharts
        self.urgentRules = urgentRules
        self.forDaemon = forDaemon
        self.requestBudget = requestBudget
    }
}

/// What a factory built: the adapter, or the diagnostics that say why not (there may be
/// warnings beside an adapter).
public struct AdapterBuild<Adapter>: Sendable where Adapter: Sendable {
    public var adapter: Adapter?
    public var diagnostics: [Diagnostic]

    public init(_ adapter: Adapter?, diagnostics: [Diagnostic] = []) {
        self.adapter = adapter
        self.diagnostics = diagnostics
    }

    /// No adapter: one error about `table` (`providers.NAME`, `sinks.NAME`) in the main file.
    public static func error(_ message: String, table: String, context: AdapterContext) -> AdapterBuild {
        AdapterBuild(nil, diagnostics: [.error("\(table): \(message)", path: context.mainFile)])
    }
}

/// One provider type: its configuration schema and its factory, declared in one place beside
/// the provider's code and registered in the application's adapter catalog.
public struct ProviderKind: Sendable {
    public let schema: AdapterSchema
    /// Builds the provider of one validated `[providers.NAME]` table of this type.
    public let make: @Sendable (ProviderConfiguration, AdapterContext) -> AdapterBuild<any QuoteProvider>

    public init(schema: AdapterSchema, make: @escaping @Sendable (ProviderConfiguration, AdapterContext) -> AdapterBuild<any QuoteProvider>) {
        self.schema = schema
        self.make = make
    }

    public var type: String { schema.type }
}

/// One sink type: its configuration schema and its factory, declared in one place beside the
/// sink's code and registered in the application's adapter catalog.
public struct SinkKind: Sendable {
    public let schema: AdapterSchema
    /// Builds the sink of one validated `[sinks.NAME]` table of this type.
    public let make: @Sendable (SinkConfiguration, AdapterContext) -> AdapterBuild<any NotificationSink>

    public init(schema: AdapterSchema, make: @escaping @Sendable (SinkConfiguration, AdapterContext) -> AdapterBuild<any NotificationSink>) {
        self.schema = schema
        self.make = make
    }

    public var type: String { schema.type }
}
