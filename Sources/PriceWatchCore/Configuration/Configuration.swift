/// The validated configuration: the main file, its providers and sinks, and every rule.
///
/// Produced by `PriceWatchConfig.ConfigurationLoader`; every value here has been checked, every
/// default filled in, every relative path made absolute and every secret resolved. The engine
/// and the adapters read it and never see TOML.
public struct Configuration: Sendable, Hashable {
    /// The main file, as given (for messages).
    public var mainFile: String
    /// The SQLite database.
    public var statePath: String
    /// The default poll interval.
    public var interval: RuleDuration
    /// How long quote history is kept in SQLite; never shorter than the longest rule window.
    public var retention: RuleDuration
    /// Providers by name, in file order.
    public var providers: [ProviderConfiguration]
    /// Sinks by name, in file order.
    public var sinks: [SinkConfiguration]
    /// Every rule of every rule file, in file order; `provider` and `notify` are resolved.
    public var rules: [Rule]
    /// The main file's `provider`, else the only provider; `nil` when neither names one.
    public var defaultProvider: String?
    /// Data health: warn when a symbol has had no fresh quote for this long (`stale_after`).
    public var staleAfter: RuleDuration
    /// Data health: warn when a provider has failed this many polls in a row (`failure_warning_after`).
    public var failureWarningAfter: Int
    /// How long recorded and backfilled candles are kept (`history_retention`).
    public var historyRetention: RuleDuration = Configuration.defaultHistoryRetention
    /// The HTTP endpoint (`[http]`); nil: none (the default).
    public var http: HTTPEndpointSettings? = nil
    /// The `[[digest]]` tables, in file order (docs/digests.md).
    public var digests: [DigestSettings] = []
    /// The `[ingest.NAME]` relay routes (docs/http.md, "Relaying TradingView alerts").
    public var ingest: [IngestRouteSettings] = []

    /// The relay route `name`, when configured.
    public func ingestRoute(named name: String) -> IngestRouteSettings? {
        ingest.first { $0.name == name }
    }
    /// The portfolios of `portfolios.d`, by file name (docs/portfolios.md).
    public var portfolios: [Portfolio] = []
    /// The rules that watch a portfolio (``Rule/portfolio`` set), in file order; not in
    /// ``rules``, which watch prices.
    public var portfolioRules: [Rule] = []
    /// The event rules (`[[rule]]` with `event`, docs/events.md), in file order; not in
    /// ``rules``: they watch calendars and news, not prices.
    public var eventRules: [EventRule] = []
    /// The main file's `[news]` table (its defaults when not written).
    public var news = NewsSettings()

    /// The enabled news rules.
    public var newsRules: [EventRule] { eventRules.filter { $0.event == .news && $0.enabled } }

    /// `stale_after` when not given: 15 minutes.
    // A positive literal: this initialiser cannot fail.
    public static let defaultStaleAfter = RuleDuration(seconds: 900)!
    /// `failure_warning_after` when not given.
    public static let defaultFailureWarningAfter = 3

    public init(mainFile: String, statePath: String, interval: RuleDuration, retention: RuleDuration,
                providers: [ProviderConfiguration], sinks: [SinkConfiguration], rules: [Rule],
                defaultProvider: String? = nil,
                staleAfter: RuleDuration = Configuration.defaultStaleAfter,
                failureWarningAfter: Int = Configuration.defaultFailureWarningAfter) {
        self.mainFile = mainFile
        self.statePath = statePath
        self.interval = interval
        self.retention = retention
        self.providers = providers
        self.sinks = sinks
        self.rules = rules
        self.defaultProvider = defaultProvider ?? (providers.count == 1 ? providers.first?.name : nil)
        self.staleAfter = staleAfter
        self.failureWarningAfter = failureWarningAfter
    }

    public func provider(named name: String) -> ProviderConfiguration? { providers.first { $0.name == name } }
    public func sink(named name: String) -> SinkConfiguration? { sinks.first { $0.name == name } }

    /// Every symbol some enabled-or-not rule watches through `provider`, the holdings and
    /// currency pairs of the portfolios its portfolio rules watch, and, for the main file's
    /// provider, the markets page's list (`[http] markets`), sorted.
    public func symbols(for provider: String) -> [String] {
        var symbols = Set<String>()
        // Rules are read in place by index: copying each of 100,000 rules (as `filter` does)
        // was a noticeable part of start-up. A rule watching what the one before it watches
        // (a file's rules on one symbol) adds nothing, and is skipped without hashing.
        var previous: [String] = []
        for index in rules.indices where rules[index].provider == provider && rules[index].symbols != previous {
            symbols.formUnion(rules[index].symbols)
            previous = rules[index].symbols
        }
        for portfolio in watchedPortfolios(through: provider) {
            symbols.formUnion(PortfolioWatchlist.symbols(of: portfolio))
        }
        if provider == defaultProvider, let markets = http?.markets { symbols.formUnion(markets) }
        return symbols.sorted()
    }

    /// The portfolio of each portfolio rule on `provider`, in rule order (a portfolio once per rule).
    private func watchedPortfolios(through provider: String) -> [Portfolio] {
        portfolioRules.compactMap { rule in
            guard rule.provider == provider, let name = rule.portfolio?.portfolio else { return nil }
            return portfolios.first { $0.name == name }
        }
    }

    /// Whether ``symbols(for:)`` has any symbol, without collecting them: the first rule on
    /// `provider` answers.
    public func watchesSymbols(through provider: String) -> Bool {
        for index in rules.indices where rules[index].provider == provider && !rules[index].symbols.isEmpty { return true }
        if provider == defaultProvider, http?.markets.isEmpty == false { return true }
        return watchedPortfolios(through: provider).contains { !PortfolioWatchlist.symbols(of: $0).isEmpty }
    }

    /// All distinct watched symbols (the portfolio rules' holdings and currency pairs too).
    public var allSymbols: Set<String> {
        var symbols = Set<String>()
        var previous: [String] = []
        for index in rules.indices where rules[index].symbols != previous {
            symbols.formUnion(rules[index].symbols)
            previous = rules[index].symbols
        }
        let watched = Set(portfolioRules.compactMap { $0.portfolio?.portfolio })
        for portfolio in portfolios where watched.contains(portfolio.name) {
            symbols.formUnion(PortfolioWatchlist.symbols(of: portfolio))
        }
        if defaultProvider != nil, let markets = http?.markets { symbols.formUnion(markets) }
        return symbols
    }
}

/// A `[providers.NAME]` table.
public struct ProviderConfiguration: Sendable, Hashable {
    public var name: String
    /// `replay`, or a real service's type.
    public var type: String
    public var baseURL: String?
    /// This provider's poll interval (the main file's `interval` when not given).
    public var interval: RuleDuration
    public var apiKey: Secret?
    /// Providers to use while this one fails, in order.
    public var fallback: [String]
    /// `requests_per_minute`: overrides the service's documented rate limit (nil: use it).
    public var requestsPerMinute: Double?
    /// `replay`: the absolute path of the CSV to replay.
    public var file: String?
    /// Every type-specific key of the table, decoded by its schema row.
    public var options: AdapterOptions

    public init(name: String, type: String, baseURL: String? = nil, interval: RuleDuration,
                apiKey: Secret? = nil, fallback: [String] = [], file: String? = nil,
                options: AdapterOptions = AdapterOptions(), requestsPerMinute: Double? = nil) {
        self.name = name
        self.type = type
        self.baseURL = baseURL
        self.interval = interval
        self.apiKey = apiKey
        self.fallback = fallback
        self.file = file
        self.options = options
        self.requestsPerMinute = requestsPerMinute
    }
}

/// A `[sinks.NAME]` table.
public struct SinkConfiguration: Sendable, Hashable {
    public var name: String
    /// `stdout`, `webhook` or `email`.
    public var type: String
    /// `stdout`: `text` (default) or `json` (JSON Lines).
    public var format: String?
    /// Every type-specific key of the table, decoded by its schema row.
    public var options: AdapterOptions
    /// `max_age`: how long after an alert was queued its delivery is retried before it goes
    /// to the dead letters.
    public var maxAge: RuleDuration
    /// `group_wait`: alerts queued within this long of the first pending one go out as one
    /// message; nil: each alert alone.
    public var groupWait: RuleDuration?
    /// `concurrency`: how many deliveries (or groups) to this sink may be in flight at once.
    public var concurrency: Int
    /// `quiet` (with `quiet_timezone`): the daily window during which its notifications are
    /// held, to go out together when it ends; nil: none.
    public var quietHours: QuietHours? = nil
    /// `rate_limit`: at most so many attempts in a window (`"20/min"`), or the sink type's
    /// default; nil: no limit (`"off"`, or a type without one).
    public var rateLimit: DeliveryRateLimit? = nil

    /// 24 hours.
    public static let defaultMaxAge = RuleDuration(seconds: 86_400)!
    public static let defaultConcurrency = 4

    public init(name: String, type: String, format: String? = nil, options: AdapterOptions = AdapterOptions(),
                maxAge: RuleDuration = defaultMaxAge, groupWait: RuleDuration? = nil,
                concurrency: Int = defaultConcurrency) {
        self.name = name
        self.type = type
        self.format = format
        self.options = options
        self.maxAge = maxAge
        self.groupWait = groupWait
        self.concurrency = concurrency
    }

    /// `kind/name`, the identity used in every log line and table (`webhook/ops`).
    public var identity: String { "\(type)/\(name)" }
}

/// A resolved secret (API key, password, signing key). Its description never shows the value,
/// so a secret that reaches a log line or an error by mistake prints as `<secret>`.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself; read it only where it is sent.
    public let value: String
    /// Where it came from, for messages: `file /etc/…`, `credential smtp`, `env FINNHUB_KEY`.
    public let origin: String

    public init(value: String, origin: String) {
        self.value = value
        self.origin = origin
    }

    public var description: String { "<secret from \(origin)>" }
    public var debugDescription: String { description }
}
