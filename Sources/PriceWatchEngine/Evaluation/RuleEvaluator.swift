import Logging
import PriceWatchCore
import PriceWatchSystemd

/// The single owner of rule state in the daemon: takes each poll's quotes, runs them through
/// the ``AlertEngine`` and writes the outcome to the store in one transaction.
///
/// Memory never runs ahead of disk: if the transaction fails, the engine is rebuilt from the
/// store, so the quotes of that poll are evaluated again on the next poll that brings them (or
/// a later quote), and no alert exists in memory that the store does not have.
public actor RuleEvaluator {
    private var engine: AlertEngine
    private var configuration: Configuration
    private let store: any AlertStore
    private let doorbell: Doorbell
    private var logger: Logger
    private var lastPrune: Timestamp?
    /// How often old quote history is pruned from the store.
    static let pruneInterval: Int64 = 3_600_000

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
    public init(configuration: Configuration, store: any AlertStore, doorbell: Doorbell, logger: Logger, now: Timestamp) async throws {
        self.configuration = configuration
        self.store = store
        self.doorbell = doorbell
        self.logger = logger
        self.engine = try await Self.loadEngine(configuration: configuration, store: store)
    }

    /// Switches to a new configuration (SIGHUP). States of rules whose condition, value,
    /// `from` or `rearm` changed start armed; all others continue. Each source keeps the
    /// history it has in memory unless the new rules need a longer window on it.
    public func reconfigure(_ configuration: Configuration, now: Timestamp) async throws {
        let engine = try await Self.loadEngine(configuration: configuration, store: store, carryingOver: self.engine)
        self.configuration = configuration
        self.engine = engine
    }

    /// Builds the engine from the stored rule states and, per source, the history its longest
    /// window needs, counted back from the source's newest stored quote (quote time, not the
    /// wall clock: see ``AlertStore/windowHistory(provider:symbol:window:)``). A source of
    /// `previous` whose window covers the new one keeps `previous`'s in-memory history.
    private static func loadEngine(configuration: Configuration, store: any AlertStore,
                                   carryingOver previous: AlertEngine? = nil) async throws -> AlertEngine {
        let book = RuleBook(rules: configuration.rules)
        var engine = AlertEngine(book: book, storedStates: try await store.ruleStates(), trackChanges: true)
        for (index, source) in book.sources.enumerated() {
            let window = book.window(forSource: index)
            if let previous, let old = previous.book.index(of: source),
               Self.window(previous.book.window(forSource: old), covers: window) {
                engine.adoptHistory(source: index, previous.history(ofSource: old))
                continue
            }
            let points = try await store.windowHistory(provider: source.provider, symbol: source.symbol, window: window)
            engine.seedHistory(source: index, points: points)
        }
        return engine
    }

    /// Whether history kept for window `old` (nil: only the newest quote) holds all that window
    /// `new` needs.
    private static func window(_ old: RuleDuration?, covers new: RuleDuration?) -> Bool {
        guard let new else { return true }
        guard let old else { return false }
        return old >= new
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
            engine = try await Self.loadEngine(configuration: configuration, store: store)
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
        try await pruneIfDue(now: now)
        return report
    }

    private func pruneIfDue(now: Timestamp) async throws {
        if let lastPrune, now.milliseconds - lastPrune.milliseconds < Self.pruneInterval { return }
        lastPrune = now
        let removed = try await store.pruneHistory(before: now.subtracting(configuration.retention))
        if removed > 0 { logger.debug("pruned \(removed) quotes older than \(configuration.retention)") }
        try await OutboxRetention.prune(store: store, configuration: configuration, now: now, logger: logger)
    }
}
