/// The rules indexed for evaluation: which (rule, symbol) states a quote from a source feeds.
///
/// Each rule-and-symbol pair is a *slot* with a stable index; each provider-and-symbol pair is
/// a *source*. Built once per configuration, so the per-quote path does array lookups only.
public struct RuleBook: Sendable {
    /// One rule applied to one symbol.
    public struct Slot: Sendable, Hashable {
        public let rule: Int
        public let key: RuleStateKey
    }

    public let rules: [Rule]
    public let slots: [Slot]
    public let sources: [QuoteSource]
    /// Per slot, what evaluation reads of its rule (no reference-counted fields).
    let checks: [RuleCheck]
    /// The slots of every source, source after source: source `i`'s are
    /// `sourceSlots[sourceSlotStart[i]..<sourceSlotStart[i + 1]]`.
    let sourceSlots: [Int32]
    let sourceSlotStart: [Int]
    /// The longest window any rule on the source uses (nil: none).
    let windowBySource: [RuleDuration?]
    /// Per source, whether a rule on it has a `session` or `from = "open"`: its quotes need a
    /// ``SessionContext``.
    public let needsSessionContext: [Bool]
    /// Per source, the `market` a rule on it names (the first one, in rule order).
    public let marketOverrides: [MarketIdentifier?]
    /// The bars of technical rules: one track per (source, timeframe).
    public let tracks: [BarTrack]
    /// Per source, its tracks (indexes into ``tracks``).
    let tracksBySource: [[Int32]]
    private let sourceIndex: [QuoteSource: Int]

    /// Indexes `rules`. With `provider` set, every rule is treated as using that provider
    /// (backtests, where a rule's `provider` is not checked); otherwise rules without a
    /// provider are left out.
    public init(rules: [Rule], provider override: String? = nil) {
        var slots: [Slot] = []
        var checks: [RuleCheck] = []
        // Per slot, its source; the slots are grouped by source once every rule is indexed.
        var slotSource: [Int32] = []
        var sources: [QuoteSource] = []
        var windows: [RuleDuration?] = []
        var needsSession: [Bool] = []
        var markets: [MarketIdentifier?] = []
        var sourceIndex: [QuoteSource: Int] = [:]
        var tracks = BarTrack.Builder()
        slots.reserveCapacity(rules.count)
        checks.reserveCapacity(rules.count)
        slotSource.reserveCapacity(rules.count)
        // Rules mostly watch what the rule before them watches (a file's rules on one symbol):
        // the last source is compared first, before hashing a lookup.
        var last: (provider: String, symbol: String, index: Int)?
        // By index, not `for rule in rules`: each rule is read in place, never copied (a copy
        // retains every string and array of it, and start-up builds a book of every rule).
        for ruleIndex in rules.indices {
            guard let provider = override ?? rules[ruleIndex].provider else { continue }
            let check = RuleCheck(rules[ruleIndex])
            let technical = rules[ruleIndex].series
            // Bars of an exchange's symbols are aligned to its sessions.
            let needsSessionContext = rules[ruleIndex].session != .always || rules[ruleIndex].baseline == .sessionOpen
                || technical != nil
            // A technical rule's window is over its series' bar values, not the quotes.
            let window = technical == nil ? rules[ruleIndex].window : nil
            for symbol in rules[ruleIndex].symbols {
                let index: Int
                if let last, last.symbol == symbol, last.provider == provider {
                    index = last.index
                } else {
                    let source = QuoteSource(provider: provider, symbol: symbol)
                    if let existing = sourceIndex[source] {
                        index = existing
                    } else {
                        index = sources.count
                        sourceIndex[source] = index
                        sources.append(source)
                        windows.append(nil)
                        needsSession.append(false)
                        markets.append(nil)
                    }
                    last = (provider, symbol, index)
                }
                if needsSessionContext { needsSession[index] = true }
                if markets[index] == nil { markets[index] = rules[ruleIndex].market }
                if let technical {
                    tracks.add(slot: slots.count, source: index, rule: rules[ruleIndex], condition: technical)
                    // Evaluated on its bars, not with the source's quotes.
                    slotSource.append(-1)
                } else {
                    slotSource.append(Int32(truncatingIfNeeded: index))
                }
                slots.append(Slot(rule: ruleIndex, key: RuleStateKey(rule: rules[ruleIndex].id, symbol: symbol)))
                checks.append(check)
                if let window { windows[index] = max(windows[index] ?? window, window) }
            }
        }
        self.rules = rules
        self.checks = checks
        // Each source's slots, in slot order: counted, then placed (a counting sort).
        var start = [Int](repeating: 0, count: sources.count + 1)
        for source in slotSource where source >= 0 { start[Int(source) + 1] += 1 }
        for index in sources.indices { start[index + 1] += start[index] }
        var next = start
        var sourceSlots = [Int32](repeating: 0, count: start[sources.count])
        for (slot, source) in slotSource.enumerated() where source >= 0 {
            sourceSlots[next[Int(source)]] = Int32(truncatingIfNeeded: slot)
            next[Int(source)] += 1
        }
        self.sourceSlotStart = start
        self.sourceSlots = sourceSlots
        self.slots = slots
        self.sources = sources
        self.windowBySource = windows
        self.needsSessionContext = needsSession
        self.marketOverrides = markets
        self.sourceIndex = sourceIndex
        (self.tracks, self.tracksBySource) = tracks.build(sourceCount: sources.count)
    }

    /// The number of slots a source's quotes are evaluated by (technical slots are evaluated
    /// on bars, and not counted).
    public func slotCount(ofSource index: Int) -> Int { sourceSlotStart[index + 1] - sourceSlotStart[index] }

    /// The tracks of a source.
    public func tracks(ofSource index: Int) -> [Int32] { tracksBySource[index] }

    /// The index of a source, if any rule watches it.
    public func index(of source: QuoteSource) -> Int? { sourceIndex[source] }

    /// The longest window used on one source.
    public func window(forSource index: Int) -> RuleDuration? { windowBySource[index] }
}
