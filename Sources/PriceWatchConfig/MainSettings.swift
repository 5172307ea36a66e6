import PriceWatchCore

/// What the main file says, read and checked: the settings rules are resolved against and the
/// configuration is built from.
struct MainSettings: Sendable {
    static let defaultRules = "rules.d"
    static let defaultState = "/var/lib/pricewatch/pricewatch.db"
    // Positive literals: these initialisers cannot fail.
    static let defaultInterval = RuleDuration(seconds: 60)!
    static let defaultRetention = RuleDuration(seconds: 7 * 86_400)!

    /// `rules` as written (relative to the main file's directory); `nil` when it was written
    /// wrongly, in which case no rule file is read.
    var rules: String? = defaultRules
    var rulesWritten = false
    /// The database, absolute.
    var statePath = defaultState
    var interval = defaultInterval
    var retention = defaultRetention
    var retentionWritten = false
    var staleAfter = Configuration.defaultStaleAfter
    var failureWarningAfter = Configuration.defaultFailureWarningAfter
    var historyRetention = Configuration.defaultHistoryRetention
    /// The providers and sinks whose tables are valid, in file order.
    var providers: [ProviderConfiguration] = []
    var sinks: [SinkConfiguration] = []
    /// Every name under `[providers]` and `[sinks]`, valid or not, in file order: a rule that
    /// names a provider whose table has an error is not also told the provider is unknown.
    var providerNames: [String] = []
    var sinkNames: [String] = []
    /// Whether `providers` and `sinks` were tables (when not, names cannot be checked).
    var providersReadable = true
    var sinksReadable = true
    /// The main `provider`, when it names a declared provider.
    var defaultProvider: String?
    /// Whether `provider` was written at all (right or wrong).
    var defaultProviderWritten = false
    /// The main `notify`, when every name in it is a declared sink.
    var defaultNotify: [String]?
    var defaultNotifyWritten = false
    /// `[http]`, when written and valid.
    var http: HTTPEndpointSettings?
    /// `[news]`: the headline feed and how often it is read.
    var news = NewsSettings()
    /// The valid `[[digest]]` tables, in file order.
    var digests: [DigestSettings] = []
    /// `[ingest.NAME]`, the valid ones.
    var ingest: [IngestRouteSettings] = []
    /// Per digest name, where its `portfolios` list is written (the loader checks the names).
    var digestPortfolioPaths: [String: TOMLKeyPath] = [:]
}
