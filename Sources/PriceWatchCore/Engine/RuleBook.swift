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
    private let sourceIndex: [QuoteSource: Int]

    /// Indexes `rules`. With `provider` set, every rule is treated as using that provider
    /// (backtests, where a rule's `provider` is not checked); otherwise rules without a
    /// provider are left out.
    public init(rules: [Rule], provider override: String? = nil) {
        var slots: [Slot] = []
        var checks: [RuleCheck] = []
        var sources: [QuoteSource] = []
        var slotsBySource: [[Int]] = []
        var windows: [RuleDuration?] = []
        var needsSession: [Bool] = []
        var markets: [MarketIdentifier?] = []
        var sourceIndex: [QuoteSource: Int] = [:]
        slots.reserveCapacity(rules.count)
        checks.reserveCapacity(rules.count)
        // By index, not `for rule in rules`: each rule is read in place, never copied (a copy
        // retains every string and array of it, and start-up builds a book of every rule).
        for ruleIndex in rules.indices {
            guard let provider = override ?? rules[ruleIndex].provider else { continue }
            let check = RuleCheck(rules[ruleIndex])
            let needsSessionContext = rules[ruleIndex].session != .always || rules[ruleIndex].baseline == .sessionOpen
            let window = rules[ruleIndex].window
            for symbol in rules[ruleIndex].symbols {
                let source = QuoteSource(provider: provider, symbol: symbol)
                let index: Int
                if let existing = sourceIndex[source] {
                    index = existing
                } else {
                    index = sources.count
                    sourceIndex[source] = index
                    sources.append(source)
                    slotsBySource.append([])
                    windows.append(nil)
                    needsSession.append(false)
                    markets.append(nil)
                }
                if needsSessionContext { needsSession[index] = true }
                if markets[index] == nil { markets[index] = rules[ruleIndex].market }
                slotsBySource[index].append(slots.count)
                slots.append(Slot(rule: ruleIndex, key: RuleStateKey(rule: rules[ruleIndex].id, symbol: symbol)))
                checks.append(check)
                if let window { windows[index] = max(windows[index] ?? window, window) }
            }
        }
        self.rules = rules
        self.checks = checks
        var start: [Int] = [0]
        start.reserveCapacity(slotsBySource.count + 1)
        for list in slotsBySource { start.append(start[start.count - 1] + list.count) }
        self.sourceSlotStart = start
        var sourceSlots: [Int32] = []
        sourceSlots.reserveCapacity(slots.count)
        for list in slotsBySource { for slot in list { sourceSlots.append(Int32(truncatingIfNeeded: slot)) } }
        self.sourceSlots = sourceSlots
        self.slots = slots
        self.sources = sources
        self.windowBySource = windows
        self.needsSessionContext = needsSession
        self.marketOverrides = markets
        self.sourceIndex = sourceIndex
    }

    /// The number of slots a source feeds.
    public func slotCount(ofSource index: Int) -> Int { sourceSlotStart[index + 1] - sourceSlotStart[index] }

    /// The index of a source, if any rule watches it.
    public func index(of source: QuoteSource) -> Int? { sourceIndex[source] }

    /// The longest window used on one source.
    public func window(forSource index: Int) -> RuleDuration? { windowBySource[index] }
}
