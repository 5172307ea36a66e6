import PriceWatchCore

/// At most one state read, and one refresh of the scraped metrics, per ``maximumAge``, shared
/// by every request that asks meanwhile: 200 browsers cost the store what one does.
actor SnapshotCache {
    static let maximumAge: Duration = .seconds(1)
    let source: any DashboardSource
    let executor: any TaskExecutor
    private var cached: (at: ContinuousClock.Instant, snapshot: DashboardSnapshot)?
    private var reading: Task<DashboardSnapshot, Never>?
    private var metricsRefreshed: ContinuousClock.Instant?
    private var refreshing: Task<Void, Never>?

    init(source: any DashboardSource, executor: any TaskExecutor) {
        self.source = source
        self.executor = executor
    }

    /// Refreshes the scraped metrics unless that happened less than ``maximumAge`` ago.
    func refreshScrapedMetrics(_ exporter: MetricsExporter) async {
        let now = ContinuousClock.now
        if let metricsRefreshed, metricsRefreshed.duration(to: now) < Self.maximumAge { return }
        if let refreshing { return await refreshing.value }
        let source = self.source
        let task = Task(executorPreference: executor) { await source.updateScrapedMetrics(exporter) }
        refreshing = task
        await task.value
        metricsRefreshed = ContinuousClock.now
        refreshing = nil
    }

    func snapshot() async -> DashboardSnapshot {
        let now = ContinuousClock.now
        if let cached, cached.at.duration(to: now) < Self.maximumAge { return cached.snapshot }
        if let reading { return await reading.value }
        let source = self.source
        let task = Task(executorPreference: executor) { await source.snapshot() }
        reading = task
        let snapshot = await task.value
        cached = (ContinuousClock.now, snapshot)
        reading = nil
        return snapshot
    }
}
