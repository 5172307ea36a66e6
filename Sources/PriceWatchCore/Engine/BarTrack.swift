/// One source's bars of one timeframe, with every series its technical rules name: the unit
/// of sharing (a thousand rules on `sma(200)` of one symbol and timeframe read one average).
///
/// Built by ``RuleBook``; the engine keeps a ``BarTrackState`` for each.
public struct BarTrack: Sendable {
    /// The source (``RuleBook/sources``).
    public let source: Int
    public let timeframe: Timeframe
    /// Every series named on the track, each computed once.
    public let series: [SeriesSpec]
    /// The technical slots evaluated on the track's bars.
    let slots: [Slot]
    /// Per series, the longest `from` window a percent rule reads of its past values (nil:
    /// none keeps them).
    let valueWindows: [RuleDuration?]
    /// Whether a slot evaluates every quote (`trigger = "tick"`).
    let hasTickSlots: Bool
    /// What each series reads of a bar (read once here, not per bar).
    let inputs: [BarInput]

    /// Whether a percent rule reads a series' past values.
    let keepsValues: Bool

    /// Closed bars needed before every rule on the track can be evaluated.
    public var warmUpBars: Int { series.map(\.warmUpBars).max() ?? 0 }

    /// One technical rule on one symbol.
    struct Slot: Sendable {
        /// The slot (``RuleBook/slots``).
        let slot: Int32
        /// The tested series and the level series (indexes into ``BarTrack/series``).
        let of: Int
        let level: Int?
        let trigger: BarTrigger
    }

    /// Groups technical slots into tracks, one per (source, timeframe), in first-seen order.
    struct Builder {
        private struct Key: Hashable {
            let source: Int
            let timeframe: Timeframe
        }

        private var index: [Key: Int] = [:]
        private var keys: [Key] = []
        private var series: [[SeriesSpec]] = []
        private var slots: [[Slot]] = []
        private var windows: [[RuleDuration?]] = []

        mutating func add(slot: Int, source: Int, rule: Rule, condition: SeriesCondition) {
            let key = Key(source: source, timeframe: condition.timeframe)
            let track: Int
            if let existing = index[key] {
                track = existing
            } else {
                track = keys.count
                index[key] = track
                keys.append(key)
                series.append([])
                slots.append([])
                windows.append([])
            }
            func position(of spec: SeriesSpec) -> Int {
                if let found = series[track].firstIndex(of: spec) { return found }
                series[track].append(spec)
                windows[track].append(nil)
                return series[track].count - 1
            }
            let of = position(of: condition.of)
            let level = condition.level.map(position(of:))
            if let window = rule.window { windows[track][of] = max(windows[track][of] ?? window, window) }
            slots[track].append(Slot(slot: Int32(truncatingIfNeeded: slot), of: of, level: level, trigger: condition.trigger))
        }

        /// The tracks, and each source's tracks.
        func build(sourceCount: Int) -> (tracks: [BarTrack], bySource: [[Int32]]) {
            var bySource = [[Int32]](repeating: [], count: sourceCount)
            let tracks = keys.indices.map { track in
                bySource[keys[track].source].append(Int32(truncatingIfNeeded: track))
                return BarTrack(source: keys[track].source, timeframe: keys[track].timeframe, series: series[track],
                                slots: slots[track], valueWindows: windows[track],
                                hasTickSlots: slots[track].contains { $0.trigger == .tick },
                                inputs: series[track].map(\.indicator.input),
                                keepsValues: windows[track].contains { $0 != nil })
            }
            return (tracks, bySource)
        }
    }
}
