import NIOCore
import PriceWatchCore

/// At most one state read, and one refresh of the scraped metrics, per ``maximumAge``, shared
/// by every request that asks meanwhile: 200 browsers cost the store what one does. The
/// dashboard's page and sections are rendered once per snapshot and poll received
/// (``LiveQuotes/version``), compressed once (``RenderedPage``), and served as the same bytes
/// until either changes: at 1,000 symbols a page is 530 KB and about 13 ms to render.
actor SnapshotCache {
    /// How long a snapshot and a metrics refresh are shared.
    let maximumAge: Duration
    let source: any DashboardSource
    let executor: any TaskExecutor
    private var cached: (at: ContinuousClock.Instant, snapshot: DashboardSnapshot)?
    private var reading: Task<DashboardSnapshot, Never>?
    private var metricsRefreshed: ContinuousClock.Instant?
    private var refreshing: Task<Void, Never>?
    /// Counts the snapshots read: a rendered page records the one it was made from.
    private var snapshotGeneration = 0

    /// A rendered page and what it was made from.
    private struct Rendered {
        let snapshotGeneration: Int
        let liveVersion: Int
        let page: RenderedPage
    }

    private var renderedPages: [DashboardPart: Rendered] = [:]

    /// What the dashboard serves: the whole page, or its live sections.
    enum DashboardPart: Hashable {
        case page
        case sections
    }

    init(source: any DashboardSource, executor: any TaskExecutor, maximumAge: Duration = .seconds(1)) {
        self.maximumAge = maximumAge
        self.source = source
        self.executor = executor
    }

    /// Refreshes the scraped metrics unless that happened less than ``maximumAge`` ago.
    func refreshScrapedMetrics(_ exporter: MetricsExporter) async {
        let now = ContinuousClock.now
        if let metricsRefreshed, metricsRefreshed.duration(to: now) < maximumAge { return }
        if let refreshing { return await refreshing.value }
        let source = self.source
        let task = Task(executorPreference: executor) { await source.updateScrapedMetrics(exporter) }
        refreshing = task
        await task.value
        metricsRefreshed = ContinuousClock.now
        refreshing = nil
    }

    /// The alert log `query` selects, read at most once per ``maximumAge`` for the same query.
    func alertLog(matching query: AlertQuery, limit: Int) async -> DashboardAlertLog {
        await shared("alerts \(query) \(limit)") { source in await source.alertLog(matching: query, limit: limit) }
    }

    /// The portfolios valued for `name` (nil: all), read at most once per ``maximumAge`` per name.
    func portfolios(named name: String?) async -> DashboardPortfolios {
        await shared("portfolio \(name ?? "")") { source in await source.portfolios(named: name) }
    }

    /// The paper leaderboard or an account's pages, read at most once per ``maximumAge`` per account.
    func paper(account: String?) async -> DashboardPaper {
        await shared("paper \(account ?? "")") { source in await source.paper(account: account) }
    }

    /// `symbol`'s upcoming calendar events, read at most once per ``maximumAge`` per symbol.
    func events(of symbol: String) async -> [CompanyEvent] {
        await shared("events \(symbol)") { source in await source.events(of: symbol) }
    }

    /// Where `symbol` is held, read at most once per ``maximumAge`` per symbol.
    func holdings(of symbol: String) async -> DashboardHoldings {
        await shared("holdings \(symbol)") { source in await source.holdings(of: symbol) }
    }

    /// `symbol`'s history over `range`, read at most once a minute per symbol and range: it
    /// changes by a candle at a time, and a read may ask the provider's chart endpoint.
    func history(of symbol: String, range: HistoryRange) async -> DashboardHistory {
        await shared("history \(symbol) \(range)", maximumAge: .seconds(60)) { source in await source.history(of: symbol, range: range) }
    }

    /// The answer of `read` for `key`, read at most once per ``maximumAge``: requests that come
    /// while it is read wait for that read, as for the snapshot. Answers older than that are
    /// dropped at the next call, so the cache holds only what was asked within the last second.
    private func shared<Value: Sendable>(_ key: String, maximumAge age: Duration? = nil,
                                         _ read: @escaping @Sendable (any DashboardSource) async -> Value) async -> Value {
        let now = ContinuousClock.now
        sharedReads = sharedReads.filter { entry in entry.value.readAt.map { $0.duration(to: now) < entry.value.maximumAge } ?? true }
        if let reading = sharedReads[key]?.task as? Task<Value, Never> {
            return await reading.value
        }
        let source = self.source
        let reading = Task(executorPreference: executor) { await read(source) }
        sharedReads[key] = (reading, nil, age ?? maximumAge)
        let value = await reading.value
        sharedReads[key]?.readAt = ContinuousClock.now
        return value
    }

    /// Reads by key: the read (a `Task<Value, Never>`, finished or not), when it finished, and
    /// how long its answer is shared.
    private var sharedReads: [String: (task: any Sendable, readAt: ContinuousClock.Instant?, maximumAge: Duration)] = [:]

    func snapshot() async -> DashboardSnapshot {
        let now = ContinuousClock.now
        if let cached, cached.at.duration(to: now) < maximumAge { return cached.snapshot }
        if let reading { return await reading.value }
        let source = self.source
        let task = Task(executorPreference: executor) { await source.snapshot() }
        reading = task
        let snapshot = await task.value
        cached = (ContinuousClock.now, snapshot)
        snapshotGeneration += 1
        reading = nil
        return snapshot
    }

    /// The rendered `part` for the current snapshot and live quotes, rendered again only when
    /// either changed since it was last.
    func rendered(_ part: DashboardPart, live: LiveQuotes) async -> RenderedPage {
        let snapshot = await snapshot()
        let version = live.version
        if let rendered = renderedPages[part], rendered.snapshotGeneration == snapshotGeneration, rendered.liveVersion == version {
            return rendered.page
        }
        let key = RenderKey(part: part, snapshotGeneration: snapshotGeneration, liveVersion: version)
        if let rendering = renderings[key] { return await rendering.value }
        // On the endpoint's low-priority executor, as the reads: polling comes first.
        let task = Task(executorPreference: executor) { () -> RenderedPage in
            switch part {
            case .page: RenderedPage(DashboardPage.page(snapshot, live: live))
            case .sections: RenderedPage(DashboardPage.sections(snapshot, live: live))
            }
        }
        renderings[key] = task
        let page = await task.value
        renderings[key] = nil
        if (renderedPages[part].map { ($0.snapshotGeneration, $0.liveVersion) < (key.snapshotGeneration, key.liveVersion) }) ?? true {
            renderedPages[part] = Rendered(snapshotGeneration: key.snapshotGeneration, liveVersion: key.liveVersion, page: page)
        }
        return page
    }

    /// What one rendering is made from; requests asking for the same share it.
    private struct RenderKey: Hashable {
        let part: DashboardPart
        let snapshotGeneration: Int
        let liveVersion: Int
    }

    private var renderings: [RenderKey: Task<RenderedPage, Never>] = [:]
}
