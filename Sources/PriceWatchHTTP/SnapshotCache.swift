import PriceWatchCore

/// At most one state read per ``maximumAge``, shared by every request that asks meanwhile:
/// 200 browsers cost the store what one does.
actor SnapshotCache {
    static let maximumAge: Duration = .seconds(1)
    let source: any DashboardSource
    private var cached: (at: ContinuousClock.Instant, snapshot: DashboardSnapshot)?
    private var reading: Task<DashboardSnapshot, Never>?

    init(source: any DashboardSource) {
        self.source = source
    }

    func snapshot() async -> DashboardSnapshot {
        let now = ContinuousClock.now
        if let cached, cached.at.duration(to: now) < Self.maximumAge { return cached.snapshot }
        if let reading { return await reading.value }
        let source = self.source
        let task = Task { await source.snapshot() }
        reading = task
        let snapshot = await task.value
        cached = (ContinuousClock.now, snapshot)
        reading = nil
        return snapshot
    }
}
