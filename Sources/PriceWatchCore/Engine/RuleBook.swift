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
    let slotsBySource: [[Int]]
    /// Per slot, what evaluation reads of its rule (no reference-counted fields).
    let checks: [RuleCheck]
    /// The slots of every source, source after source: source `i`'s are
    /// `sourceSlots[sourceSlotStart[i]..<sourceSlotStart[i + 1]]`.
    let sourceSlots: [Int32]
    let sourceSlotStart: [Int]
    /// Per rule, what its alerts carry that is derived from the rule (built once, not per alert).
    let alertTexts: [AlertTexts]
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
        var sources: [QuoteSource] = []
        var slotsBySource: [[Int]] = []
        var windows: [RuleDuration?] = []
        var needsSession: [Bool] = []
        var markets: [MarketIdentifier?] = []
        var sourceIndex: [QuoteSource: Int] = [:]
        for (ruleIndex, rule) in rules.enumerated() {
            guard let provider = override ?? rule.provider else { continue }
            for symbol in rule.symbols {
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
                if rule.session != .always || rule.baseline == .sessionOpen { needsSession[index] = true }
                if markets[index] == nil { markets[index] = rule.market }
                slotsBySource[index].append(slots.count)
                slots.append(Slot(rule: ruleIndex, key: RuleStateKey(rule: rule.id, symbol: symbol)))
                if let window = rule.window { windows[index] = max(windows[index] ?? window, window) }
            }
        }
        self.rules = rules
        self.checks = slots.map { RuleCheck(rules[$0.rule]) }
        var start: [Int] = [0]
        start.reserveCapacity(slotsBySource.count + 1)
        for list in slotsBySource { start.append(start[start.count - 1] + list.count) }
        self.sourceSlotStart = start
        self.sourceSlots = slotsBySource.flatMap { $0.map { Int32(truncatingIfNeeded: $0) } }
        self.alertTexts = rules.map(AlertTexts.init)
        self.slots = slots
        self.sources = sources
        self.slotsBySource = slotsBySource
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

    /// The strings an alert takes from its rule, computed once per rule.
    struct AlertTexts: Sendable {
        let fingerprint: String
        let conditionText: String

        init(_ rule: Rule) {
            fingerprint = rule.fingerprint
            conditionText = rule.conditionText
        }
    }
}
