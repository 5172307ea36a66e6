import FoundationEssentials
import PriceWatchCore
import PriceWatchHTTP
import PriceWatchServices

/// The dashboard's data in the running daemon: rules and alerts through the use cases the
/// command line calls (``ReadRuleStatus``, ``ReadAlertLog``: the state database opened
/// read-only), liveness from the daemon's services, market status from ``MarketHours``.
struct DaemonDashboardSource: DashboardSource {
    /// Recent alerts shown: the latest this many (in firing order; the log is bounded by
    /// `retention`).
    static let recentAlerts = 20

    let configPath: String
    let environment: [String: String]
    let liveness: DaemonLiveness
    /// The daemon's trading calendars: market status of each symbol, and the markets page.
    let markets: MarketCalendars
    /// The day's sparkline from stored candles; nil: from the quotes received since start.
    let history: (any PriceHistoryReader)?
    /// The newest quotes with their previous close (the change); nil: the change shows `–`.
    let quotes: (any QuoteHistoryStore)?
    /// Each portfolio's recorded daily values (the portfolio page's value over time); nil: none.
    let portfolioValues: (any PortfolioValueStore)?
    /// The polling providers with a chart endpoint: the symbol page's history beyond what was stored.
    let chartProviders: RunningChartProviders
    let configuration: @Sendable () async -> Configuration
    /// The running configuration's count of watched symbols, counted once per configuration.
    let watchedSymbolCount: @Sendable () -> Int
    let wallClock: @Sendable () -> Timestamp
    /// The calendars the calendar rules read (the symbol page's events); nil: none shown.
    var companyEvents: (any CompanyEventStore)? = nil
    /// Where the candles a page's range backfilled are kept (the daemon's history); nil: not kept.
    var candleStore: (any CandleStore)? = nil

    func events(of symbol: String) async -> [CompanyEvent] {
        guard let companyEvents, let events = try? await companyEvents.companyEvents(of: [symbol]) else { return [] }
        let today = CivilDate(utcDateOf: wallClock())
        return events.filter { ($0.lastDate ?? $0.date) >= today }
    }

    func snapshot() async -> DashboardSnapshot {
        let now = wallClock()
        var snapshot = DashboardSnapshot(now: now)
        snapshot.problems = liveness.problems(at: now)
        snapshot.providers = liveness.pollers().map { .init(name: $0.name, interval: $0.interval, lastPoll: $0.lastPoll) }
        var errors: [String] = []
        switch await ReadRuleStatus.read(configPath: configPath, environment: environment, now: now, report: { _ in }) {
        case .read(let statuses):
            snapshot.rules = statuses
            var seen: Set<String> = []
            let details = await latestQuoteDetails()
            let running = await configuration()
            let levels = Self.levels(of: running.rules)
            let freshness = PriceFreshness(staleAfterMilliseconds: running.staleAfter.seconds &* 1000, hours: markets)
            for status in statuses where seen.insert(status.symbol).inserted {
                let quote = status.provider.flatMap { details[QuoteSource(provider: $0, symbol: status.symbol)] }
                var entry = await entry(status.symbol, provider: status.provider, lastPrice: status.lastPrice, quote: quote, now: now)
                entry.levels = levels[status.symbol] ?? []
                entry.isStale = status.lastPrice.map {
                    freshness.isStale(symbol: status.symbol, exchange: quote?.exchange, time: $0.time, now: now)
                } ?? false
                snapshot.symbols.append(entry)
            }
            // The markets page's list: polled through the main file's provider.
            if let provider = running.defaultProvider, let list = running.http?.markets {
                for symbol in list {
                    let quote = details[QuoteSource(provider: provider, symbol: symbol)]
                    snapshot.marketList.append(await entry(symbol, provider: provider,
                                                           lastPrice: quote.map { HistoryPoint(time: $0.time, price: $0.price) },
                                                           quote: quote, now: now))
                }
            }
        case .configurationFailed:
            errors.append("the configuration on disk has errors; run pricewatch check")
        case .failed(let message):
            errors.append("could not read the rule states: \(message)")
        }
        switch await ReadAlertLog.read(configPath: configPath, query: AlertQuery(), report: { _ in }) {
        case .read(let log):
            snapshot.alerts = log.records.suffix(Self.recentAlerts).reversed().map { record in
                .init(alert: record.alert, deliveries: record.deliveries.map { ($0.sink, $0.status.rawValue) })
            }
        case .configurationFailed:
            errors.append("the configuration on disk has errors; run pricewatch check")
        case .failed(let message):
            errors.append("could not read the alert log: \(message)")
        }
        let outbox = await pending()
        snapshot.pendingDeliveries = outbox.count
        snapshot.oldestPending = outbox.oldest
        if !errors.isEmpty { snapshot.readError = Array(Set(errors)).sorted().joined(separator: "; ") }
        return snapshot
    }

    func alertLog(matching query: AlertQuery, limit: Int) async -> DashboardAlertLog {
        switch await ReadAlertLog.read(configPath: configPath, query: query, report: { _ in }) {
        case .read(let log):
            let lines = log.records.suffix(limit).reversed().map { record in
                DashboardSnapshot.AlertLine(alert: record.alert, deliveries: record.deliveries.map { ($0.sink, $0.status.rawValue) })
            }
            return DashboardAlertLog(lines: Array(lines), matched: log.records.count, now: wallClock())
        case .configurationFailed:
            return DashboardAlertLog(readError: "the configuration on disk has errors; run pricewatch check", now: wallClock())
        case .failed(let message):
            return DashboardAlertLog(readError: "could not read the alert log: \(message)", now: wallClock())
        }
    }

    func portfolios(named name: String?) async -> DashboardPortfolios {
        let valued = await valuations(named: name)
        guard case .valued(let valuations, _, _) = valued else { return valued }
        let running = await configuration()
        var lots: [String: [PortfolioLot]] = [:]
        for portfolio in running.portfolios where valuations.contains(where: { $0.name == portfolio.name }) {
            lots[portfolio.name] = portfolio.lots
        }
        return .valued(valuations, values: await recordedValues(of: valuations.map(\.name)), lots: lots)
    }

    /// The portfolios valued as `pricewatch portfolio` values them, without their recorded values.
    private func valuations(named name: String?) async -> DashboardPortfolios {
        switch await ValuePortfolio.run(configPath: configPath, environment: environment, name: name, rates: nil, ratesURL: nil,
                                        now: wallClock(), report: { _ in }) {
        case .valued(let valuations): .valued(valuations)
        case .unknownPortfolio(let available): .unknown(available: available)
        case .configurationFailed: .failed("the configuration on disk has errors; run pricewatch check")
        case .failed(let message): .failed(message)
        }
    }

    /// A symbol's figures for the pages: its price, previous close and currency from `quote`,
    /// the day's points, and its market (nil on no known market: polled as always open,
    /// shown as unknown).
    private func entry(_ symbol: String, provider: String?, lastPrice: HistoryPoint?, quote: Quote?,
                       now: Timestamp) async -> DashboardSnapshot.Symbol {
        let identifier = markets.market(ofSymbol: symbol, exchange: quote?.exchange)
        return DashboardSnapshot.Symbol(symbol: symbol, provider: provider, lastPrice: lastPrice, previousClose: quote?.previousClose,
                                        market: identifier.map { markets.status(of: $0, at: now) },
                                        dayPoints: await dayPoints(of: symbol, last: lastPrice), marketName: identifier?.rawValue,
                                        marketTimeZone: identifier.flatMap { markets.timeZone(of: $0) }, currency: quote?.currency)
    }

    /// The recorded values of the last five years of each portfolio named; a portfolio whose
    /// values cannot be read has none (the page says how many days it has).
    func recordedValues(of names: [String]) async -> [String: [PortfolioValuePoint]] {
        guard let portfolioValues else { return [:] }
        let since = Timestamp(milliseconds: wallClock().milliseconds - 5 * 366 * 86_400_000)
        var values: [String: [PortfolioValuePoint]] = [:]
        for name in names {
            values[name] = (try? await portfolioValues.portfolioValues(portfolio: name, since: since)) ?? []
        }
        return values
    }

    func holdings(of symbol: String) async -> DashboardHoldings {
        var holdings = DashboardHoldings()
        switch await valuations(named: nil) {
        case .valued(let valuations, _, _):
            let portfolios = await configuration().portfolios
            for valuation in valuations {
                let lots = portfolios.first { $0.name == valuation.name }?.lots.filter { $0.symbol == symbol } ?? []
                for position in valuation.positions where position.symbol == symbol {
                    holdings.portfolios.append(.init(portfolio: valuation.name, position: position, lots: lots))
                }
            }
        case .unknown:
            break
        case .failed(let message):
            holdings.problems.append("portfolios: \(message)")
        }
        // Every account's statement: the leaderboard names them (no rates: only the names are used).
        switch await PaperTrading.leaderboard(currency: nil, rates: IdentityExchangeRates(), now: wallClock(),
                                              configPath: configPath, report: { _ in }) {
        case .success(let board):
            for standing in board.standings {
                guard case .success(let statement) = await PaperTrading.statement(account: standing.account, configPath: configPath,
                                                                                  report: { _ in }) else { continue }
                for position in statement.positions where position.symbol == symbol {
                    holdings.paper.append(.init(account: standing.account, currency: statement.account.currency, position: position))
                }
            }
        case .failure(let failure):
            holdings.problems.append("paper accounts: \(failure.description)")
        }
        return holdings
    }

    func history(of symbol: String, range: HistoryRange) async -> DashboardHistory {
        let now = wallClock()
        switch await ReadPriceHistory.read(symbol: symbol, range: range, interval: range.defaultInterval, provider: nil,
                                           configPath: configPath, environment: environment, now: now,
                                           marketHours: markets, runningProvider: { chartProviders.provider(named: $0) },
                                           report: { _ in }) {
        case .read(let history):
            // Backfilled candles are kept like the recorded ones (and pruned with them by
            // `history_retention`), so the next read of the range finds them stored; a candle
            // whose period has not ended (today's, as far as it goes) is not kept, since a
            // stored candle is never replaced.
            let complete = history.backfilled.filter { $0.time.milliseconds + $0.interval.seconds * 1000 <= now.milliseconds }
            if let candleStore, !complete.isEmpty {
                // A failed write leaves the page as it is: the candles are fetched again next time.
                try? await candleStore.storeCandles(complete, symbol: symbol)
            }
            // The 52-week range only from a read that reaches back 52 weeks: a shorter one
            // would pass for less history than there is.
            let reachesYear = range.seconds * 1000 >= YearRange.window
            return .read(points: history.candles.map { HistoryPoint(time: $0.time, price: $0.close) },
                         startingClose: history.closeBeforeRange, source: history.source.description,
                         note: history.backfillProblem, yearRange: reachesYear ? YearRange(candles: history.candles, now: now) : nil)
        case .configurationFailed:
            return .failed("the configuration on disk has errors; run pricewatch check")
        case .failed(let message):
            return .failed(message)
        }
    }

    func paper(account: String?) async -> DashboardPaper {
        guard let account else {
            // Other currencies are not converted: no reference rates are fetched for a page.
            switch await PaperTrading.leaderboard(currency: nil, rates: IdentityExchangeRates(), now: wallClock(),
                                                  configPath: configPath, report: { _ in }) {
            case .success(let board): return .leaderboard(standings: board.standings, currency: board.currency)
            case .failure(let failure): return .failed(failure.description)
            }
        }
        switch await PaperTrading.statement(account: account, configPath: configPath, report: { _ in }) {
        case .success(let statement):
            let history = try? await PaperTrading.history(account: account, today: PaperDay(wallClock()), configPath: configPath,
                                                          report: { _ in }).get()
            return .account(statement, history: history)
        case .failure(.unknownAccount(let name)):
            return .unknownAccount(name)
        case .failure(let failure):
            return .failed(failure.description)
        }
    }

    func marketOverview() async -> [DashboardMarket] {
        ShowMarkets.overview(markets, now: wallClock()).map {
            DashboardMarket(code: $0.market.rawValue, name: $0.name, timeZone: $0.timeZone, status: $0.status,
                            earlyClose: $0.earlyClose)
        }
    }

    func healthProblems() async -> [String] {
        liveness.problems(at: wallClock())
    }

    func updateScrapedMetrics(_ exporter: MetricsExporter) async {
        let configuration = await configuration()
        let now = wallClock()
        let outbox = await pending()
        exporter.set("pricewatch_outbox_pending_deliveries", to: Double(outbox.count))
        let age = outbox.oldest.map { Double(max(0, now.milliseconds - $0.milliseconds)) / 1000 } ?? 0
        exporter.set("pricewatch_outbox_oldest_pending_age_seconds", to: age)
        exporter.set("pricewatch_outbox_dead_deliveries", to: Double(await deadLetters()))
        exporter.set("pricewatch_rules_watched", to: Double(configuration.rules.count))
        exporter.set("pricewatch_symbols_watched", to: Double(watchedSymbolCount()))
        exporter.set("pricewatch_build_info", labels: [("version", PriceWatchVersion.current)], to: 1)
    }

    /// Each symbol's rule levels (``Rule/priceLevel``), labelled with the rule's id.
    static func levels(of rules: [Rule]) -> [String: [ChartLevel]] {
        var levels: [String: [ChartLevel]] = [:]
        for rule in rules {
            guard let price = rule.priceLevel else { continue }
            for symbol in rule.symbols {
                levels[symbol, default: []].append(ChartLevel(role: .threshold, price: price, label: rule.id))
            }
        }
        return levels
    }

    /// The UTC day of `last` in five-minute closes, from the history reader; empty without one
    /// or when it fails (the sparkline then uses the quotes received since start).
    private func dayPoints(of symbol: String, last: HistoryPoint?) async -> [HistoryPoint] {
        guard let history, let last else { return [] }
        let day: Int64 = 86_400_000
        let start = Timestamp(milliseconds: last.time.milliseconds - ((last.time.milliseconds % day) + day) % day)
        let candles = (try? await history.candles(symbol: symbol, interval: .fiveMinutes, from: start,
                                                  to: Timestamp(milliseconds: start.milliseconds + day))) ?? []
        return candles.map { HistoryPoint(time: $0.time, price: $0.close) }
    }

    /// The newest stored quote of every provider and symbol with its previous close; empty
    /// without a store or when it cannot be read (the change then shows `–`).
    private func latestQuoteDetails() async -> [QuoteSource: Quote] {
        guard let quotes else { return [:] }
        return (try? await quotes.latestQuoteDetails()) ?? [:]
    }

    /// How many deliveries are dead letters, through the alert log; 0 when it cannot be read.
    private func deadLetters() async -> Int {
        guard case .read(let log) = await ReadAlertLog.read(configPath: configPath, query: AlertQuery(status: .dead),
                                                            report: { _ in }) else { return 0 }
        return log.records.flatMap(\.deliveries).filter { $0.status == .dead }.count
    }

    /// Pending deliveries and the creation time of the oldest, through the alert log.
    private func pending() async -> (count: Int, oldest: Timestamp?) {
        guard case .read(let log) = await ReadAlertLog.read(configPath: configPath, query: AlertQuery(status: .pending),
                                                            report: { _ in }) else { return (0, nil) }
        let deliveries = log.records.flatMap(\.deliveries).filter { $0.status == .pending }
        return (deliveries.count, deliveries.map(\.createdAt).min())
    }
}
