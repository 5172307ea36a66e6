/// What a chart draws of technical rules' series: those that belong on the price scale
/// (averages, bands, channels) as labelled lines over the prices, and each oscillator (RSI,
/// MACD, rate of change, volume) in a panel under them with its reference levels and the
/// rule's number. The alert emails, the digests and `pricewatch history` draw the same lines.
///
/// Pure: computed from closed bars with each series' own ``SeriesComputation``; no switch over
/// indicators (their ``IndicatorDisplay`` says where they go).
public struct SeriesChartLines: Sendable, Hashable {
    public var overlays: [ChartOverlay] = []
    public var panels: [ChartPanel] = []

    public init() {}

    /// Whether there is nothing to draw.
    public var isEmpty: Bool { overlays.isEmpty && panels.isEmpty }

    /// The series `specs` over `bars` (oldest first, warm-up included), keeping the points at
    /// or after `shownFrom`. `ruleLevel`: the rule's number level and the series it is compared
    /// with (`rsi(14)` below `30`), drawn in that series' panel. `suffix` is added to labels
    /// (` 1d`, where the chart's own bars are of another timeframe).
    public init(specs: [SeriesSpec], bars: [BarHistory.Bar], shownFrom: Timestamp,
                ruleLevel: (series: String, value: Double)? = nil, suffix: String = "") {
        for spec in specs where spec != .price {
            let values = SeriesSnapshot.values(of: spec, over: bars)
            let points = zip(bars, values).compactMap { bar, value -> ChartPoint? in
                guard bar.time >= shownFrom, let value else { return nil }
                return ChartPoint(time: bar.time, price: value)
            }
            let label = spec.description + suffix
            let ruleLevels = ruleLevel.map { $0.series == spec.description ? [$0.value] : [] } ?? []
            switch spec.indicator.display {
            case .overlay:
                add(overlay: ChartOverlay(label: label, points: points))
            case .oscillator(let levels):
                // One panel per family: macd and macd_signal share theirs.
                let family = spec.name.split(separator: "_").first.map(String.init) ?? spec.name
                if let index = panels.firstIndex(where: { $0.title.hasPrefix(family) }) {
                    guard !panels[index].lines.contains(where: { $0.label == label }) else { continue }
                    panels[index].lines.append(ChartOverlay(label: label, points: points))
                    panels[index].title += ", " + label
                    panels[index].levels = Array(Set(panels[index].levels + ruleLevels)).sorted()
                } else {
                    panels.append(ChartPanel(title: label, lines: [ChartOverlay(label: label, points: points)],
                                             levels: Array(Set(levels + ruleLevels)).sorted()))
                }
            case .histogram:
                guard !panels.contains(where: { $0.title == label }) else { continue }
                panels.append(ChartPanel(title: label, levels: ruleLevels, histogram: points))
            }
        }
    }

    /// These lines and `other`'s, each series once (by its label).
    public func merged(with other: SeriesChartLines) -> SeriesChartLines {
        var merged = self
        for overlay in other.overlays { merged.add(overlay: overlay) }
        for panel in other.panels where !merged.panels.contains(where: { $0.title == panel.title }) {
            merged.panels.append(panel)
        }
        return merged
    }

    private mutating func add(overlay: ChartOverlay) {
        guard !overlays.contains(where: { $0.label == overlay.label }) else { return }
        overlays.append(overlay)
    }

    /// `points` read at each of `times` (oldest first): the value of the newest point at or
    /// before it, nil before the first. A chart of finer candles than the series' bars shows
    /// the series as steps, as trading charts show a higher timeframe's average.
    public static func values(of points: [ChartPoint], at times: [Timestamp]) -> [ExactDecimal?] {
        var index = 0
        var current: ExactDecimal?
        return times.map { time in
            while index < points.count, points[index].time <= time {
                current = points[index].price
                index += 1
            }
            return current
        }
    }
}
