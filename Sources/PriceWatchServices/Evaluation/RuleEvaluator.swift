import Logging
import PriceWatchCore

/// The single owner of rule state in the daemon: takes each poll's quotes, runs them through
/// the ``AlertEngine`` and writes the outcome to the store in one transaction.
///
/// Memory never runs ahead of disk: if the transaction fails, the engine is rebuilt from the
/// store, and no alert exists in memory that the store does not have. When the store refuses
/// the write for a reason a later attempt may overcome (a full disk, an I/O error), the poll is
/// kept (``PollBacklog``, bounded) and evaluated again, before any newer poll, at the next
/// ingest: a crossing during the outage is alerted with its quote time once the store accepts
/// writes again.
public actor RuleEvaluator {
    private var engine: AlertEngine
    /// The portfolio rules, valued from the same quotes (docs/portfolios.md).
    private var portfolioEngine: PortfolioRuleEngine
    /// The trading calendars: where a quote lies in its session, for `session` and
    /// `from = "open"` rules.
    private let marketHours: any MarketHours
    /// Stored candles, read to warm up technical rules' bars (nil: none are kept).
    private let priceHistory: (any PriceHistoryReader)?
    private var configuration: Configuration
    private let store: any RuleStateStore & QuoteHistoryStore
    private let doorbell: Doorbell
    var logger: Logger
    /// Polls the store refused to write, waiting to be evaluated and committed in order.
    private var backlog: PollBacklog
    /// Since when (wall clock) the store has refused writes; nil while it accepts them.
    private var outageSince: Timestamp?
    /// Whether `engine` may hold what the store does not (a commit and the rebuild after it both
    /// failed): it is rebuilt before the next poll.
    private var engineAheadOfStore = false
    private var busy = false
    /// Quotes accepted and rejected, alerts fired (``DaemonMetrics``).
    private let metrics: DaemonMetrics
    private var waiting: [CheckedContinuation<Void, Never>] = []

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
    ///
    /// - Parameter backlogLimit: the most quotes kept in memory while the store refuses writes
    ///   (``PollBacklog``); past it the oldest polls are dropped.
    public init(configuration: Configuration, store: any RuleStateStore & QuoteHistoryStore, doorbell: Doorbell, logger: Logger, now: Timestamp,
                backlogLimit: Int = PollBacklog.defaultMaximumQuotes, metrics: DaemonMetrics = .disabled,
                marketHours: any MarketHours = AlwaysOpenMarkets(), priceHistory: (any PriceHistoryReader)? = nil) async throws {
        self.metrics = metrics
        self.marketHours = marketHours
        self.priceHistory = priceHistory
        self.backlog = PollBacklog(maximumQuotes: backlogLimit)
        self.configuration = configuration
        self.store = store
        self.doorbell = doorbell
        self.logger = logger
        self.engine = try await Self.loadEngine(configuration: configuration, store: store)
        self.portfolioEngine = try await Self.loadPortfolioEngine(configuration: configuration, store: store)
        await warmUpTracks(carryingOver: nil, now: now)
    }

    /// Switches to a new configuration (SIGHUP). States of rules whose condition, value,
    /// `from` or `rearm` changed start armed; all others continue. Each source keeps the
    /// history it has in memory unless the new rules need a longer window on it.
    public func reconfigure(_ configuration: Configuration, now: Timestamp) async throws {
        await acquire()
        defer { release() }
        let engine = try await Self.loadEngine(configuration: configuration, store: store,
                                               carryingOver: engineAheadOfStore ? nil : self.engine)
        let portfolioEngine = try await Self.loadPortfolioEngine(configuration: configuration, store: store,
                                                                 carryingOver: self.portfolioEngine)
        let previous = engineAheadOfStore ? nil : self.engine
        engineAheadOfStore = false
        self.configuration = configuration
        self.engine = engine
        self.portfolioEngine = portfolioEngine
        await warmUpTracks(carryingOver: previous, now: now)
    }

    /// Builds the portfolio rules' engine from the stored rule states; `previous`'s prices and
    /// rates carry over (a reload), and without them the newest stored quotes are the start (a
    /// start, or a rebuild after a failed commit: memory never runs ahead of disk, so the kept
    /// poll's quotes are new again when it is retried).
    private static func loadPortfolioEngine(configuration: Configuration, store: any RuleStateStore & QuoteHistoryStore,
                                            carryingOver previous: PortfolioRuleEngine? = nil) async throws -> PortfolioRuleEngine {
        guard !configuration.portfolioRules.isEmpty else { return PortfolioRuleEngine(rules: [], portfolios: []) }
        var engine = PortfolioRuleEngine(rules: configuration.portfolioRules, portfolios: configuration.portfolios,
                                         storedStates: try await store.ruleStates(), carryingOver: previous)
        if previous == nil || previous?.isEmpty == true { engine.seed(try await store.latestQuoteDetails()) }
        return engine
    }

    /// Builds the engine from the stored rule states and, per source, the history its longest
    /// window needs, counted back from the source's newest stored quote (quote time, not the
    /// wall clock: see ``WindowHistoryRequest``). A source of
    /// `previous` whose window covers the new one keeps `previous`'s in-memory history.
    private static func loadEngine(configuration: Configuration, store: any RuleStateStore & QuoteHistoryStore,
                                   carryingOver previous: AlertEngine? = nil) async throws -> AlertEngine {
        let book = RuleBook(rules: configuration.rules)
        var engine = AlertEngine(book: book, storedStates: try await store.ruleStates(), trackChanges: true)
        var unread: [(index: Int, request: WindowHistoryRequest)] = []
        for (index, source) in book.sources.enumerated() {
            let window = book.window(forSource: index)
            if let previous, let old = previous.book.index(of: source),
               Self.window(previous.book.window(forSource: old), covers: window) {
                engine.adoptHistory(source: index, previous.history(ofSource: old))
                engine.adoptSessionOpen(source: index, previous.sessionOpen(ofSource: old))
                continue
            }
            unread.append((index, WindowHistoryRequest(source: source, window: window)))
        }
        guard !unread.isEmpty else { return engine }
        let histories = try await store.windowHistories(unread.map(\.request))
        for (source, points) in zip(unread, histories) {
            engine.seedHistory(source: source.index, points: points)
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
        try await ingest(PolledQuotes(provider: provider, results: results, servedBy: servedBy, time: now))
    }

    /// Evaluates and commits `polled`, its ``PolledQuotes/quotes`` as built once for every
    /// consumer, at its time.
    @discardableResult
    public func ingest(_ polled: PolledQuotes) async throws -> Report {
        await acquire()
        defer { release() }
        let poll = PollBacklog.Poll(provider: polled.provider, quotes: polled.quotes, servedBy: polled.servedBy, receivedAt: polled.time)
        let now = polled.time
        let dropped = backlog.append(poll)
        if dropped.polls > 0 {
            let range = dropped.earliest.map { " (quote times \($0) to \(dropped.latest ?? $0))" } ?? ""
            logger.error("""
                kept polls exceed \(backlog.maximumQuotes) quotes: dropped the \(dropped.polls) oldest, \(dropped.quotes) \
                quote(s)\(range); crossings among them are not alerted
                """)
        }
        var current: Report?
        var caughtUp = 0
        while let next = backlog.first {
            let isCurrent = backlog.count == 1
            do {
                let report = try await evaluate(next, commitTime: now)
                backlog.removeFirst()
                for alert in report.alerts {
                    logger.notice("alert fired: \(alert.message)", metadata: [
                        "rule": "\(alert.rule)", "symbol": "\(alert.symbol)", "provider": "\(alert.provider ?? next.provider)",
                        "alert_id": "\(alert.id)", "price": "\(alert.price)",
                        OperatorEvent.metadataKey: OperatorEvent.alertFired.metadataValue,
                    ])
                }
                if isCurrent { current = report } else { caughtUp += 1 }
            } catch is CancellationError {
                // A reload pausing the pollers, or shutdown: the store refused nothing. The
                // poll stays first in line, so no crossing in it is lost.
                throw PollKeptForLater(reason: "evaluation interrupted (the daemon is reloading or stopping)",
                                       polls: backlog.count, quotes: backlog.quoteCount, interrupted: true)
            } catch let error where Self.isOutage(error) {
                if outageSince == nil {
                    outageSince = now
                    logger.error("the state store refuses writes: \(error); keeping polls in memory, in arrival order, until it accepts them")
                }
                throw PollKeptForLater(reason: "\(error)", polls: backlog.count, quotes: backlog.quoteCount)
            } catch {
                backlog.removeFirst()
                if isCurrent { throw error }
                logger.error("could not save a kept poll of provider '\(next.provider)': \(error); it is dropped")
            }
        }
        if let since = outageSince {
            outageSince = nil
            logger.notice("the state store accepts writes again (refused since \(since)): \(caughtUp) kept poll(s) evaluated and committed")
        }
        return current ?? Report()
    }

    /// Whether `error` is a refusal to write now that a later attempt may overcome (see
    /// ``TransientStoreError``).
    private static func isOutage(_ error: any Error) -> Bool {
        return (error as? any TransientStoreError)?.isTransient == true
    }

    /// Evaluates one poll and commits its outcome. If the commit fails, the engine is put back to
    /// what the store holds (rebuilt from it; if even that fails, before the next poll).
    private func evaluate(_ poll: PollBacklog.Poll, commitTime: Timestamp) async throws -> Report {
        if engineAheadOfStore {
            engine = try await Self.loadEngine(configuration: configuration, store: store)
            portfolioEngine = try await Self.loadPortfolioEngine(configuration: configuration, store: store)
            engineAheadOfStore = false
            await warmUpTracks(carryingOver: nil, now: commitTime)
        }
        let provider = poll.provider
        var report = Report()
        var accepted: [Quote] = []
        var alerts: [PendingAlert] = []
        // Counted once per poll and server, not looked up in the registry per quote.
        var acceptedBy: [String: Int] = [:]
        defer { for (server, count) in acceptedBy { metrics.quoteAccepted(provider: server, count: count) } }
        // In time order, then by symbol: as ``PolledQuotes`` built them.
        let quotes = poll.quotes
        report.acceptedSymbols.reserveCapacity(quotes.count)
        accepted.reserveCapacity(quotes.count)
        for quote in quotes {
            let server = poll.servedBy[quote.symbol] ?? provider
            guard let source = engine.book.index(of: QuoteSource(provider: provider, symbol: quote.symbol)) else {
                // Polled only for a portfolio rule: recorded for its valuation and the history.
                if portfolioEngine.needs(quote.symbol),
                   QuoteAcceptance.decide(quote, lastAccepted: nil, now: poll.receivedAt) == .accepted,
                   portfolioEngine.record(quote, provider: server) {
                    report.accepted += 1
                    acceptedBy[server, default: 0] += 1
                    report.acceptedSymbols.insert(quote.symbol)
                    accepted.append(quote)
                }
                continue
            }
            let session = engine.book.needsSessionContext[source]
                ? Self.sessionContext(of: quote, market: engine.book.marketOverrides[source], hours: marketHours) : nil
            let outcome = engine.process(quote, source: source, provider: server, now: poll.receivedAt, session: session)
            switch outcome.acceptance {
            case .accepted:
                report.accepted += 1
                acceptedBy[server, default: 0] += 1
                report.acceptedSymbols.insert(quote.symbol)
                accepted.append(quote)
                portfolioEngine.record(quote, provider: server)
            case .repeated:
                report.repeated += 1
            case .rejected(let reason):
                report.rejected += 1
                metrics.quoteRejected(provider: server, reason: DaemonMetrics.rejectionReason(of: quote))
                logger.warning("quote rejected: \(reason)", metadata: ["provider": "\(server)", "symbol": "\(quote.symbol)"])
            }
            for key in outcome.suppressed {
                logger.info("alert suppressed by cooldown", metadata: ["rule": "\(key.rule)", "symbol": "\(key.symbol)"])
            }
            alerts += outcome.alerts
        }
        if !engine.book.tracks.isEmpty {
            // Bars whose end passed a poll interval ago close without waiting for a quote of
            // the next bar (a market that closed, a symbol that stopped trading).
            // Read before the engine is mutated: the closures must not reach into it.
            let sources = engine.book.sources
            let intervals = Dictionary(configuration.providers.map { ($0.name, $0.interval.seconds &* 1000) }) { first, _ in first }
            let outcome = engine.closeBars(now: poll.receivedAt, graceMilliseconds: { intervals[sources[$0].provider] ?? 60_000 },
                                           provider: { sources[$0].provider })
            alerts += outcome.alerts
        }
        if !portfolioEngine.isEmpty {
            let freshness = PriceFreshness(staleAfterMilliseconds: configuration.staleAfter.seconds &* 1000, hours: marketHours)
            let outcome = portfolioEngine.evaluate(freshness: freshness)
            for change in outcome.changes {
                if let reason = change.reason {
                    logger.warning("portfolio rules not evaluated: \(reason)", metadata: ["portfolio": "\(change.portfolio)"])
                } else {
                    logger.notice("portfolio rules evaluated again: every price and rate is known", metadata: ["portfolio": "\(change.portfolio)"])
                }
            }
            for key in outcome.suppressed {
                logger.info("alert suppressed by cooldown", metadata: ["rule": "\(key.rule)", "symbol": "\(key.symbol)"])
            }
            alerts += outcome.alerts
        }
        var states = engine.drainChangedStates()
        states.merge(portfolioEngine.drainChangedStates()) { _, portfolio in portfolio }
        let commit = StoreCommit(provider: provider, quotes: accepted, states: states, alerts: alerts, now: commitTime)
        guard !commit.isEmpty else { return report }
        do {
            try await store.commit(commit)
        } catch {
            engineAheadOfStore = true
            if let rebuilt = try? await Self.loadEngine(configuration: configuration, store: store),
               let rebuiltPortfolios = try? await Self.loadPortfolioEngine(configuration: configuration, store: store) {
                engine = rebuilt
                portfolioEngine = rebuiltPortfolios
                engineAheadOfStore = false
                await warmUpTracks(carryingOver: nil, now: commitTime)
            }
            throw error
        }
        report.alerts = alerts.map(\.alert)
        for alert in report.alerts { metrics.alertFired(rule: alert.rule) }
        if !alerts.isEmpty { doorbell.ring() }
        return report
    }

    // MARK: - Technical rules' bars

    /// Gives every track its bars: a track whose series a previous engine computed keeps
    /// them; the others are rebuilt from stored candles (so a restart fetches nothing that was
    /// recorded or fetched before).
    private func warmUpTracks(carryingOver previous: AlertEngine?, now: Timestamp) async {
        for index in engine.book.tracks.indices {
            let track = engine.book.tracks[index]
            let source = engine.book.sources[track.source]
            if let previous, let old = previous.book.index(of: source),
               let oldTrack = previous.track(ofSource: old, timeframe: track.timeframe),
               previous.book.tracks[oldTrack].series == track.series {
                engine.adoptBars(track: index, previous.barState(ofTrack: oldTrack))
                continue
            }
            await rebuildTrack(index, now: now)
        }
    }

    /// Reads a track's stored candles and rebuilds its bars from them.
    private func rebuildTrack(_ index: Int, now: Timestamp) async {
        guard let priceHistory else { return }
        let track = engine.book.tracks[index]
        let source = engine.book.sources[track.source]
        let needed = track.warmUpBars + 1
        let from = Timestamp(milliseconds: now.milliseconds &- BarHistory.lookBack(bars: needed, timeframe: track.timeframe))
        do {
            let candles = try await priceHistory.candles(symbol: source.symbol, interval: BarHistory.candleInterval(for: track.timeframe),
                                                         from: from, to: Timestamp(milliseconds: now.milliseconds &+ 60_000))
            let bars = BarHistory.bars(from: candles, timeframe: track.timeframe, limit: needed,
                                       placement: marketHours.barPlacement(ofSymbol: source.symbol,
                                                                           market: engine.book.marketOverrides[track.source]))
            engine.rebuildTrack(index, from: bars)
        } catch {
            logger.warning("could not read the stored history of \(source.symbol) to warm up its \(track.timeframe) bars: \(error)")
        }
    }

    /// The tracks that have fewer closed bars than their rules need: what the warm-up fetches
    /// from the providers' chart endpoints.
    public func warmUpRequests() -> [BarWarmUpRequest] {
        engine.book.tracks.indices.compactMap { index in
            let track = engine.book.tracks[index]
            let closed = engine.barState(ofTrack: index).closedBars
            guard closed < track.warmUpBars else { return nil }
            let source = engine.book.sources[track.source]
            return BarWarmUpRequest(provider: source.provider, symbol: source.symbol, timeframe: track.timeframe,
                                    bars: track.warmUpBars, closedBars: closed)
        }
    }

    /// Rebuilds the bars of `symbol` on `timeframe` from the store (after the warm-up stored
    /// what a provider's chart endpoint answered); returns the closed bars of its tracks.
    @discardableResult
    public func reloadBars(provider: String, symbol: String, timeframe: Timeframe, now: Timestamp) async -> Int? {
        await acquire()
        defer { release() }
        guard let source = engine.book.index(of: QuoteSource(provider: provider, symbol: symbol)),
              let track = engine.track(ofSource: source, timeframe: timeframe) else { return nil }
        await rebuildTrack(track, now: now)
        return engine.barState(ofTrack: track).closedBars
    }

    /// The configuration in force (the housekeeping job reads its retention and rules).
    public var currentConfiguration: Configuration { configuration }

    // MARK: - One poll or reload at a time

    /// Waits until no other ingest or reload runs: the actor is reentrant across the store's
    /// awaits, and the backlog must be drained by one caller, in order.
    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Where `quote` lies in its market's regular session; nil when its market is unknown.
    static func sessionContext(of quote: Quote, market override: MarketIdentifier?, hours: any MarketHours) -> SessionContext? {
        // A market named but without a calendar is as unknown as no market: no session open is
        // known, and every quote counts as in session.
        guard let market = override ?? hours.market(ofSymbol: quote.symbol, exchange: quote.exchange),
              hours.timeZone(of: market) != nil else { return nil }
        return SessionContext.of(market, at: quote.time, in: hours)
    }
}
