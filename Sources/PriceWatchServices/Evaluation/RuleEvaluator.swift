import Logging
import PriceWatchCore

/// The single owner of rule state in the daemon: takes each poll's quotes, runs them through
/// the ``AlertEngine`` and writes the outcome to the store in one transaction.
///
/// Memory never runs ahead of disk: if the transaction fails, the engine is rebuilt from the
/// store, so the quotes of that poll are evaluated again on the next poll that brings them (or
/// a later quote), and no alert exists in memory that the store does not have.
public actor RuleEvaluator {
    private var engine: AlertEngine
    private var configuration: Configuration
    private let store: any RuleStateStore & QuoteHistoryStore
    private let doorbell: Doorbell
    var logger: Logger

    /// What one poll did, for logs and status.
    public struct Report: Sendable, Hashable {
        public var accepted = 0
        public var repeated = 0
        public var rejected = 0
        public var alerts: [Alert] = []
        /// The symbols whose quote was accepted (fresh data, for data health).
        public var acceptedSymbols: Set<String> = []
    }

    /// Loads rule states and history from the store for `configuration`.
    public init(configuration: Configuration, store: any RuleStateStore & QuoteHistoryStore, doorbell: Doorbell, logger: Logger, now: Timestamp) async throws {
        self.configuration = configuration
        self.store = store
        self.doorbell = doorbell
        self.logger = logger
        self.engine = try await Self.loadEngine(configuration: configuration, store: store, now: now)
    }

    /// Switches to a new configuration (SIGHUP). States of rules whose condition, value,
    /// `from` or `rearm` changed start armed; all others continue.
    public func reconfigure(_ configuration: Configuration, now: Timestamp) async throws {
        let engine = try await Self.loadEngine(configuration: configuration, store: store, now: now)
        self.configuration = configuration
        self.engine = engine
    }

    private static func loadEngine(configuration: Configuration, store: any RuleStateStore & QuoteHistoryStore, now: Timestamp) async throws -> AlertEngine {
        let book = RuleBook(rules: configuration.rules)
        var engine = AlertEngine(book: book, storedStates: try await store.ruleStates(), trackChanges: true)
        for (index, source) in book.sources.enumerated() {
            let window = book.window(forSource: index)
            let since = window.map { now.subtracting($0) } ?? now
            let points = try await store.history(provider: source.provider, symbol: source.symbol, since: since)
            engine.seedHistory(source: index, points: points)
        }
        return engine
    }

    /// Evaluates one poll of `provider` and commits it. Quotes are processed in time order.
    ///
    /// `servedBy` names, per symbol, the fallback provider that gave the quote while `provider`
    /// failed. Such a quote feeds `provider`'s rules and history like its own (one time line per
    /// rule source, so a quote older than the newest one from either is a repeat and nothing
    /// fires twice or backwards in time); its alerts name the fallback.
    @discardableResult
    public func ingest(provider: String, results: [String: Result<Quote, ProviderError>], now: Timestamp,
                       servedBy: [String: String] = [:]) async throws -> Report {
        var report = Report()
        var accepted: [Quote] = []
        var alerts: [PendingAlert] = []
        let quotes = results.values.compactMap { try? $0.get() }.sorted { ($0.time, $0.symbol) < ($1.time, $1.symbol) }
        for quote in quotes {
            guard let source = engine.book.index(of: QuoteSource(provider: provider, symbol: quote.symbol)) else { continue }
            let server = servedBy[quote.symbol] ?? provider
            let outcome = engine.process(quote, source: source, provider: server, now: now)
            switch outcome.acceptance {
            case .accepted:
                report.accepted += 1
                report.acceptedSymbols.insert(quote.symbol)
                accepted.append(quote)
            case .repeated:
                report.repeated += 1
            case .rejected(let reason):
                report.rejected += 1
                logger.warning("quote rejected: \(reason)", metadata: ["provider": "\(server)", "symbol": "\(quote.symbol)"])
            }
            for key in outcome.suppressed {
                logger.info("alert suppressed by cooldown", metadata: ["rule": "\(key.rule)", "symbol": "\(key.symbol)"])
            }
            alerts += outcome.alerts
        }
        let commit = StoreCommit(provider: provider, quotes: accepted, states: engine.drainChangedStates(), alerts: alerts, now: now)
        guard !commit.isEmpty else { return report }
        do {
            try await store.commit(commit)
        } catch {
            logger.error("could not save poll of provider '\(provider)': \(error); reloading rule state from the store")
            engine = try await Self.loadEngine(configuration: configuration, store: store, now: now)
            throw error
        }
        report.alerts = alerts.map(\.alert)
        for pending in alerts {
            let alert = pending.alert
            logger.notice("alert fired: \(alert.message)", metadata: [
                "rule": "\(alert.rule)", "symbol": "\(alert.symbol)", "provider": "\(alert.provider ?? provider)",
                "alert_id": "\(alert.id)", "price": "\(alert.price)",
                OperatorEvent.metadataKey: OperatorEvent.alertFired.metadataValue,
            ])
        }
        if !alerts.isEmpty { doorbell.ring() }
        return report
    }

    /// The configuration in force (the housekeeping job reads its retention and rules).
    public var currentConfiguration: Configuration { configuration }
}
