import Foundation
import Logging
import PriceWatchCharts
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchProviders
import PriceWatchHTTP
import PriceWatchServices
import PriceWatchStore
import PriceWatchSystemd
import ServiceLifecycle
import UnixSignals

/// `pricewatch run`: loads the configuration, opens the store, and runs the pollers and the
/// dispatcher until SIGTERM or SIGINT; SIGHUP reloads the configuration.
public enum Daemon {
    /// Exit status when the configuration is invalid at start (`RestartPreventExitStatus=78`).
    public static let configurationErrorStatus: Int32 = 78
    /// Exit status when the state database is unusable: damaged, emptied, or written by a newer
    /// version (65, EX_DATAERR; also in `RestartPreventExitStatus=`: restarting cannot help).
    public static let stateUnusableStatus: Int32 = 65

    /// Runs the daemon; returns the process exit status.
    ///
    /// The trading calendars (market-aware polling, paper fills, the dashboard) are loaded here
    /// from `PRICEWATCH_CALENDARS` or the installed data and `calendars.d` (docs/markets.md).
    ///
    /// - Parameter observer: told of the daemon's lifecycle; `nil`: systemd's
    ///   (``SystemdObserver``: `sd_notify` and the watchdog, which do nothing when the process
    ///   was not started by systemd).
    public static func run(configPath: String, environment: [String: String], logger: Logger,
                           observer: (any DaemonObserver)? = nil) async -> Int32 {
        MallocArenas.limit(environment: environment)
        // Every log line passes the redactor of the loaded configuration and the escaper.
        let redaction = SecretRedaction()
        let upstream = logger.handler
        let logger = Logger(label: logger.label) { _ in SanitizingLogHandler(wrapping: upstream, redaction: redaction) }
        // One libcurl transfer loop (one thread) for every provider and sink, HTTP and SMTP,
        // for the daemon's whole life.
        let transports = NetworkTransports()
        let notifier = ServiceNotifier()
        let watchdogPeriod = SystemdEnvironment.watchdogPingPeriod()
        // systemd's watchdog runs from the start: each finished start-up step is progress.
        let startupProgress = { if watchdogPeriod != nil { notifier.watchdog() } }
        notifier.status("loading the configuration")
        defer { notifier.flush() }
        // Charts for `chart = true` email sinks, drawn from the price history once the store is open.
        let alertCharts = HistoryAlertCharts()
        // The rule files as last loaded: a reload reads again only those that changed.
        let ruleFiles = RuleFileCache()
        let clock = ContinuousClock()
        // Each provider's rate limit, shared by its poller, the pollers it is a fallback of, the
        // warm-up, and the requests a provider sends beyond one per batch (Yahoo's chart fallback).
        let rateLimits = ProviderRateLimits(clock: clock)
        let (loaded, diagnostics) = loadSetup(configPath: configPath, environment: environment, previous: nil, transports: transports,
                                              alertCharts: alertCharts, ruleFiles: ruleFiles, budget: rateLimits)
        report(diagnostics)
        guard var setup = loaded else {
            logger.critical("invalid configuration in \(configPath); not starting",
                            metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationRejected.metadataValue])
            notifier.status("invalid configuration in \(configPath); not starting")
            return configurationErrorStatus
        }
        redaction.update(for: setup.configuration)
        // Trading calendars (docs/markets.md): a missing or bad calendar file is reported and its
        // markets count as always open; it never stops the daemon.
        // They go to the log (the journal), not to standard error as the configuration's do.
        let (markets, calendarDiagnostics) = MarketCalendarsLoader.load(configPath: configPath, environment: environment)
        for diagnostic in calendarDiagnostics { logger.warning("\(diagnostic)") }
        // The HTTP endpoint (`[http]`, off by default) and the metrics it exports; read once at
        // start: a change of `[http]` takes effect at the next start.
        let httpSettings = setup.configuration.http
        // Socket activation (docs/http.md): a listening socket from pricewatch-http.socket is
        // served instead of binding `listen`; beyond loopback it needs the token like `listen`.
        let inheritedSocket = SocketActivation.takeSocket(named: "http")
        if let inheritedSocket {
            if httpSettings == nil {
                logger.warning("systemd passed a listening socket but the configuration has no [http] table; the socket is not served")
            } else if httpSettings?.token == nil, !SocketActivation.isLoopback(inheritedSocket) {
                logger.critical("the socket passed by systemd is not on a loopback address, so [http] needs a token; not starting",
                                metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationRejected.metadataValue])
                return configurationErrorStatus
            }
        }
        let exporter = httpSettings.map { _ in MetricsExporter() }
        let metrics = exporter.map { DaemonMetrics(factory: $0.factory) }
        if let metrics { setup = measured(setup, metrics: metrics) }
        startupProgress()
        // Every operation of the store reports damage here, whoever calls it: a damaged file
        // stops the daemon (StoreFaultService).
        let faults = StoreFaults()
        let store: SQLiteAlertStore
        do {
            store = try SQLiteAlertStore.open(path: setup.configuration.statePath, onUnusable: faults.report)
        } catch {
            if let unusable = StoreFailure.unusable(error) { return StoreFailure.stop(unusable, notifier: notifier, logger: logger) }
            logger.critical("\(error)")
            return 1
        }
        let wallClock: @Sendable () -> Timestamp = { Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
        // Every counter at 0 from the first scrape (docs/http.md).
        metrics?.declare(setup.configuration)
        metrics?.started(at: wallClock())
        let doorbell = Doorbell()
        let evaluator: RuleEvaluator
        do {
            evaluator = try await RuleEvaluator(configuration: setup.configuration, store: store, doorbell: doorbell,
                                                logger: logger, now: wallClock(), metrics: metrics ?? .disabled,
                                                marketHours: markets, priceHistory: store)
        } catch {
            if let unusable = StoreFailure.unusable(error) { return StoreFailure.stop(unusable, notifier: notifier, logger: logger) }
            logger.critical("could not load state from \(setup.configuration.statePath): \(error)")
            return 1
        }
        // The one owner of the running configuration: set by the reload coordinator, read by
        // the jobs, the dashboard and the delivery.
        let running = RunningConfiguration(setup.configuration)
        let sinkRegistry = SinkRegistry(setup.sinks, configuration: setup.configuration.sinks)
        let chartProviders = RunningChartProviders(setup)
        let dispatcher = DeliveryDispatcher(store: store, sinks: sinkRegistry, doorbell: doorbell, clock: clock,
                                            wallClock: wallClock, logger: logger,
                                            silenceGate: SilenceGate(store: store, logger: logger),
                                            urgentRules: { running.urgentRules })
        startupProgress()
        let baseObserver = observer ?? SystemdObserver(
            notifier: notifier, watchdogPeriod: watchdogPeriod, logger: logger,
            pendingDeliveries: {
                try? await store.pendingDeliveryCount()
            })
        // With the HTTP endpoint: liveness for /healthz, and the dashboard's live quotes.
        let liveness = DaemonLiveness()
        let observer: any DaemonObserver = MemoryReturningObserver(wrapping: httpSettings == nil ? baseObserver
            : LivenessObserver(wrapping: baseObserver, liveness: liveness, wallClock: wallClock))
        let liveQuotes = LiveQuotes()
        let httpConsumers: [any QuoteConsumer] = httpSettings == nil ? [] : [PollMetricsConsumer(metrics: metrics ?? .disabled), liveQuotes]
        let housekeeping = Housekeeping(store: store, configuration: { running.current },
                                        wallClock: wallClock, logger: logger)
        // Price history: recorded from every poll, pruned by its own job (docs/history.md).
        let candles: any CandleStore = store
        alertCharts.attach(candles)
        let historyRetention = HistoryRetention(store: candles, configuration: { running.current },
                                                wallClock: wallClock, logger: logger)
        // Digests (docs/digests.md): one job per [[digest]]; a reload adds, reschedules and
        // removes them (ScheduledJobsSubscriber).
        let digests = DigestJobs(
            builder: DigestBuilder(history: candles, alerts: store, marketHours: markets, renderer: CairoChartRenderer(),
                                   sections: [PortfolioDigestSection(portfolios: { running.current.portfolios }, store: store),
                                              PaperDigestSection(store: store)], logger: logger),
            outbox: store, configuration: { running.current }, wallClock: wallClock, logger: logger,
            render: { DigestNotification($0).message() })
        // Each portfolio's value once an hour, for its page's value over time (docs/portfolios.md).
        let portfolioValues = PortfolioValueRecorder(configuration: { running.current }, store: store, marketHours: markets,
                                                     wallClock: wallClock)
        // Calendar rules' earnings, dividend and split dates: read hourly (and at start) when a
        // source's calendar of a symbol is a day old, or an hour after it failed (docs/events.md).
        let calendarWatch = CalendarWatch(store: store, outbox: store, hours: markets, logger: logger)
        let calendarRefresh = CalendarRefresh(watch: calendarWatch,
                                              sources: { CalendarSources.sources(for: $0, transport: transports.http) },
                                              configuration: { running.current }, wallClock: wallClock, doorbell: doorbell)
        let fixedJobs = [housekeeping.job, historyRetention.job, portfolioValues.job, calendarRefresh.job]
        let jobs: @Sendable (ServiceSetup) -> [ScheduledJob] = { setup in
            fixedJobs + digests.jobs(for: setup.configuration.digests, marketHours: markets)
        }
        let scheduler = JobScheduler(jobs: jobs(setup), store: store, clock: clock, wallClock: wallClock, logger: logger)
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let reloadRequests = AsyncStream<Void> { continuation in
            let task = Task {
                for await _ in hangups { continuation.yield() }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        // Paper-trading fills: only while the symbol's market is open.
        let paperFills = PaperFillConsumer(store: store, markets: markets, doorbell: doorbell, logger: logger)
        // Prices and rule states for the sinks that mirror them (mqtt, for Home Assistant).
        let marketState = MarketStateConsumer(sinks: sinkRegistry, states: store, configuration: { running.current })
        // One journal line per change of a symbol's source (a provider or its fallback).
        let quoteSources = QuoteSourceConsumer(metrics: metrics ?? .disabled, logger: logger)
        let polling = PollingService(initial: setup, consumers: [evaluator, HistoryRecorder(store: candles, logger: logger), paperFills, marketState,
                                                                 quoteSources]
                                         + httpConsumers,
                                     clock: clock, wallClock: wallClock,
                                     logger: logger, observer: observer, marketHours: markets, rateLimits: rateLimits,
                                     metrics: metrics ?? .disabled)
        // The order of the switch: the pollers stop, the evaluator takes the new rules (or
        // refuses them), the sinks switch over, the pollers start again.
        // Technical rules' bars missing from the store, fetched from the chart endpoints.
        // Budgeted like polls: the providers' rate limits shared with the pollers, their backoff.
        rateLimits.update(for: setup)
        let warmUp = BarWarmUp(evaluator: evaluator, store: candles, initial: setup,
                               acquire: { try await rateLimits.acquire($0) }, sleep: { try await clock.sleep(for: $0) },
                               backoff: PollingSettings().backoff, wallClock: wallClock, logger: logger)
        // Relayed messages (`[ingest.NAME]`, docs/http.md): only with the HTTP endpoint.
        let ingest = httpSettings.map { _ in
            DaemonIngestOutbox(outbox: store, doorbell: doorbell, routes: setup.configuration.ingest, wallClock: wallClock)
        }
        let reloads = ReloadCoordinator(
            initial: setup, subscribers: [polling, evaluator, warmUp, sinkRegistry, chartProviders,
                                          ScheduledJobsSubscriber(scheduler: scheduler, jobs: jobs)]
                + (ingest.map { [$0] } ?? []), reloadRequests: reloadRequests,
            observer: observer, logger: logger, wallClock: wallClock, announcesReady: false, metrics: metrics ?? .disabled, running: running,
            load: { previous in
                logger.info("reloading configuration from \(configPath)")
                let loaded = loadSetup(configPath: configPath, environment: environment, previous: previous, transports: transports,
                                       metrics: metrics, alertCharts: alertCharts, ruleFiles: ruleFiles, budget: rateLimits)
                if let setup = loaded.0 { redaction.update(for: setup.configuration) }
                return loaded
            })
        var httpServices: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let httpSettings, let exporter {
            let source = DaemonDashboardSource(configPath: configPath, environment: environment, liveness: liveness,
                                               markets: markets, history: candles, quotes: store, portfolioValues: store,
                                               chartProviders: chartProviders,
                                               configuration: { running.current },
                                               watchedSymbolCount: { running.watchedSymbolCount },
                                               wallClock: wallClock, companyEvents: store, candleStore: candles)
            let silences = DaemonSilenceAdministration(configPath: configPath, wallClock: wallClock,
                                                       configuration: { running.current })
            httpServices = [.init(service: HTTPEndpoint(settings: httpSettings, source: source, live: liveQuotes, exporter: exporter,
                                                        silences: silences, ingest: ingest, inheritedSocket: inheritedSocket, logger: logger),
                                  serviceName: "http")]
        }
        // News rules (docs/events.md): each watched symbol's headline feed, at start and every
        // `[news] interval`, new stories queued in the outbox.
        let news = NewsService(watch: NewsWatch(ledger: store, outbox: store, logger: logger),
                               source: { settings in YahooNewsFeed(transport: transports.http, baseURL: settings.baseURL) },
                               configuration: { running.current }, clock: clock, wallClock: wallClock, doorbell: doorbell,
                               logger: logger)
        // Calendar rules (docs/events.md): reminders looked for every minute in the stored
        // events; the calendars themselves are read by the `calendars` job.
        let calendars = CalendarService(watch: calendarWatch, configuration: { running.current }, clock: clock,
                                        wallClock: wallClock, doorbell: doorbell, logger: logger)
        let dispatch: any Service = httpSettings == nil ? DispatchService(dispatcher: dispatcher)
            : DeliveryLivenessService(DispatchService(dispatcher: dispatcher), liveness: liveness)
        // Each service is named: without a name, the service group describes the service's value
        // by reflection, which for a service holding the configuration walks every rule.
        let group = ServiceGroup(configuration: .init(
            services: [
                // First, so it stops last: the watchdog pings while the others drain.
                .init(service: ObserverService(observer: observer), successTerminationBehavior: .ignore, serviceName: "observer"),
                .init(service: dispatch, serviceName: "delivery"),
                .init(service: SchedulerService(scheduler: scheduler), serviceName: "scheduler"),
                .init(service: polling, serviceName: "polling"),
                .init(service: warmUp, serviceName: "warm-up"),
                .init(service: news, serviceName: "news"),
                .init(service: calendars, serviceName: "calendars"),
                .init(service: StoreFaultService(faults: faults), successTerminationBehavior: .ignore, serviceName: "store-faults"),
            ] + httpServices + [
                // Last, so it hears of shutdown first: STOPPING=1 at once, and a reload in
                // progress is abandoned.
                .init(service: reloads, serviceName: "reload"),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        let summary = ConfigurationSummary.line(setup.configuration)
        logger.notice("pricewatch started: \(summary); state in \(setup.configuration.statePath)")
        // READY before any service runs: the configuration is loaded and the store open, and no
        // poll can finish first (its status line would already name a last poll).
        observer.ready(summary: summary, pollers: setup.pollSchedule)
        // The services hold the setup now; this frame must not keep the start's rules alive
        // past the first reload (they are most of the configuration's memory).
        setup.configuration.rules = []
        do {
            try await group.run()
        } catch {
            if let unusable = StoreFailure.unusable(error) { return StoreFailure.stop(unusable, notifier: notifier, logger: logger) }
            logger.critical("stopped on error: \(error)")
            return 1
        }
        logger.notice("pricewatch stopped")
        return 0
    }

    /// Loads and validates the configuration and builds its adapters. Providers whose settings
    /// are unchanged from `previous` are reused, and so are rule files unchanged since the last
    /// load without errors (`ruleFiles`).
    static func loadSetup(configPath: String, environment: [String: String],
                          previous: ServiceSetup?, transports: NetworkTransports,
                          metrics: DaemonMetrics? = nil, alertCharts: (any AlertChartProvider)? = nil,
                          ruleFiles: RuleFileCache? = nil,
                          budget: any ProviderRequestBudget = UnlimitedRequestBudget()) -> (ServiceSetup?, [Diagnostic]) {
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: configPath, environment: environment,
                                                                    schemas: AdapterCatalog.schemas, cache: ruleFiles)
        // What loading allocated and freed goes back to the system, at start and at every reload.
        FreedMemory.release()
        guard let configuration, !diagnostics.containsErrors else { return (nil, diagnostics) }
        // Build only providers that are new or whose settings changed; reuse the others.
        var changed = configuration
        if let previous {
            changed.providers = configuration.providers.filter { previous.configuration.provider(named: $0.name) != $0 }
        }
        let (built, providerDiagnostics) = AdapterFactory.providers(for: changed, transport: transports.http, budget: budget)
        var providers = built
        if let metrics { providers = providers.mapValues { MeasuredQuoteProvider($0, metrics: metrics) } }
        if let previous {
            for settings in configuration.providers where providers[settings.name] == nil {
                providers[settings.name] = previous.providers[settings.name]
            }
        }
        var (sinks, sinkDiagnostics) = AdapterFactory.sinks(for: configuration, transport: transports.http, mailTransport: transports.mail,
                                                            alertCharts: alertCharts, forDaemon: true)
        if let metrics {
            sinks = Dictionary(uniqueKeysWithValues: sinks.map { ($0.key, MeasuredNotificationSink($0.value, name: $0.key, metrics: metrics)) })
        }
        let all = diagnostics + providerDiagnostics + sinkDiagnostics
        guard !all.containsErrors else { return (nil, all) }
        return (ServiceSetup(configuration: configuration, providers: providers, sinks: sinks), all)
    }

    /// Prints diagnostics to standard error, one per line (under systemd, the journal).
    static func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
        }
    }
}

extension Daemon {
    /// `setup` with every provider and sink recording into `metrics`.
    static func measured(_ setup: ServiceSetup, metrics: DaemonMetrics) -> ServiceSetup {
        var setup = setup
        setup.providers = setup.providers.mapValues { MeasuredQuoteProvider($0, metrics: metrics) }
        setup.sinks = Dictionary(uniqueKeysWithValues: setup.sinks.map {
            ($0.key, MeasuredNotificationSink($0.value, name: $0.key, metrics: metrics))
        })
        return setup
    }
}
