/// The evaluation engine shared by the daemon and `pricewatch backtest`: accepted quotes in,
/// alert decisions and rule-state changes out.
///
/// Pure and synchronous: no I/O, no clock (the wall-clock `now` for quote acceptance is passed
/// in, and is nil in backtests). The daemon owns one engine inside an actor, persists what
/// ``process(_:source:now:)`` returns in one transaction, and rebuilds the engine from the
/// store if that transaction fails, so memory never runs ahead of disk.
public struct AlertEngine: Sendable {
    public let book: RuleBook
    private var machines: [RuleStateMachine]
    private var histories: [SymbolHistory]
    /// Per source, the regular session its latest in-session quote belonged to, with the open
    /// price when it is known (`from = "open"`).
    private var sessionOpens: [SessionOpen?]
    /// The texts alerts and stored states carry, by rule index, made when first needed: most
    /// rules of a large book never fire, and making them all up front was a tenth of start-up.
    private var ruleTexts: [Int: RuleTexts] = [:]
    private let trackChanges: Bool
    private var changedSlots: [Int] = []
    private var changedFlags: [Bool]
    /// The bars of technical rules, one per ``RuleBook/tracks`` entry.
    private var bars: [BarTrackState]

    /// What one quote did.
    public struct Outcome: Sendable {
        public var acceptance: QuoteAcceptance
        /// Alerts fired, in rule order, each with the sinks of its rule.
        public var alerts: [PendingAlert]
        /// Firings dropped because of `cooldown` (for logs).
        public var suppressed: [RuleStateKey]
        /// Technical rules evaluated on a bar (closed, or forming for `trigger = "tick"`).
        public var barEvaluations = 0

        static func notAccepted(_ acceptance: QuoteAcceptance) -> Outcome {
            Outcome(acceptance: acceptance, alerts: [], suppressed: [])
        }
    }

    /// Creates an engine over `book`, resuming stored states whose fingerprint still matches
    /// their rule; any other state starts armed. `trackChanges` collects changed states for
    /// ``drainChangedStates()`` (the daemon persists them; backtests do not need them).
    public init(book: RuleBook, storedStates: [RuleStateKey: StoredRuleState] = [:], trackChanges: Bool = false) {
        self.book = book
        self.machines = book.slots.map { slot in
            guard let stored = storedStates[slot.key], stored.fingerprint == book.rules[slot.rule].fingerprint else {
                return RuleStateMachine()
            }
            return RuleStateMachine(state: stored.state)
        }
        self.histories = Array(repeating: SymbolHistory(), count: book.sources.count)
        self.sessionOpens = Array(repeating: nil, count: book.sources.count)
        self.trackChanges = trackChanges
        self.changedFlags = Array(repeating: false, count: trackChanges ? book.slots.count : 0)
        self.bars = book.tracks.map(BarTrackState.init(track:))
    }

    /// Seeds a source's history from the store (oldest first), before any quote is processed.
    public mutating func seedHistory(source index: Int, points: [HistoryPoint]) {
        for point in points where histories[index].latestTime.map({ point.time > $0 }) ?? true {
            histories[index].append(time: point.time, price: point.price)
        }
        histories[index].trim(window: book.window(forSource: index))
    }

    /// Replaces a source's history with one carried over from a previous engine (a reload
    /// keeps what it had in memory), trimmed to this engine's window for the source.
    public mutating func adoptHistory(source index: Int, _ history: SymbolHistory) {
        histories[index] = history
        histories[index].trim(window: book.window(forSource: index))
    }

    /// The session open a source has seen (carried over a reload with ``adoptSessionOpen(source:_:)``).
    public func sessionOpen(ofSource index: Int) -> SessionOpen? { sessionOpens[index] }

    /// Takes a session open carried over from a previous engine.
    public mutating func adoptSessionOpen(source index: Int, _ open: SessionOpen?) { sessionOpens[index] = open }

    /// The current state of a slot (for tests and status).
    public func state(ofSlot index: Int) -> RuleState { machines[index].state }

    /// The in-memory history of a source.
    public func history(ofSource index: Int) -> SymbolHistory { histories[index] }

    /// Processes one quote from source `index` (see ``RuleBook/index(of:)``): accepts or
    /// rejects it, then runs every rule on the source in rule order. `provider` is the name
    /// carried by the alerts (nil in backtests). `session` places the quote in its market's
    /// regular session (nil: the market is unknown, every quote is in session and no open is
    /// known).
    /// `requirePositivePrice` is false for a portfolio rule's figures.
    public mutating func process(_ quote: Quote, source index: Int, provider: String?, now: Timestamp?,
                                 session: SessionContext? = nil, requirePositivePrice: Bool = true) -> Outcome {
        let acceptance = QuoteAcceptance.decide(quote, lastAccepted: histories[index].latestTime, now: now,
                                                requirePositivePrice: requirePositivePrice)
        guard acceptance == .accepted else { return .notAccepted(acceptance) }

        var outcome = Outcome(acceptance: .accepted, alerts: [], suppressed: [])
        let window = book.window(forSource: index)
        let price = quote.price, time = quote.time, previousClose = quote.previousClose
        if let open = session?.sessionOpen, sessionOpens[index]?.time != open {
            // This quote is the open only when the source's previous quote came before the
            // session: an engine that joins a session under way does not know its open.
            let sawTheOpen = histories[index].latestTime.map { $0 < open } ?? false
            sessionOpens[index] = SessionOpen(time: open, price: sawTheOpen ? price : nil)
        }
        let openPrice = sessionOpens[index]?.price
        let trading = session?.isTrading ?? true
        let extendedHours = trading || Self.isExtendedHours(quote.marketState)
        // The loop reads only plain values (slot numbers, `RuleCheck`s, states): no rule is
        // copied and nothing is retained per evaluation. Rules are looked up only to build an
        // alert that fires.
        for position in book.sourceSlotStart[index]..<book.sourceSlotStart[index + 1] {
            let slotIndex = Int(book.sourceSlots[position])
            let check = book.checks[slotIndex]
            switch check.session {
            case .always: break
            case .regular: if !trading { continue }
            case .extended: if !extendedHours { continue }
            }
            let base: ExactDecimal?
            if check.isPercent {
                if check.fromOpen {
                    base = openPrice
                } else if let window = check.windowMilliseconds {
                    base = histories[index].price(atOrBefore: Timestamp(milliseconds: time.milliseconds &- window))
                } else {
                    base = previousClose
                }
            } else {
                base = nil
            }
            let before = machines[slotIndex].state
            let action = machines[slotIndex].evaluate(check, price: price, time: time, base: base)
            record(action, slot: slotIndex, before: before, quote: quote, provider: provider, into: &outcome)
        }
        if !book.tracksBySource[index].isEmpty {
            formBars(quote, source: index, session: session, provider: provider, now: now, into: &outcome)
        }
        histories[index].append(time: quote.time, price: quote.price)
        histories[index].trim(window: window)
        return outcome
    }

    // MARK: - Technical rules

    /// The state of a track (warm-up, values, the forming bar), for status and tests.
    public func barState(ofTrack index: Int) -> BarTrackState { bars[index] }

    /// Feeds an accepted quote to the source's bar tracks: a quote of a later bar first closes
    /// the forming one (its rules are evaluated on it), then forms its own; `trigger = "tick"`
    /// rules are evaluated against the forming bar. A quote outside its exchange's regular
    /// session is in no bar of that exchange.
    mutating func formBars(_ quote: Quote, source index: Int, session: SessionContext?, provider: String?,
                           now: Timestamp?, into outcome: inout Outcome) {
        if let session, session.sessionOpen == nil { return }
        for trackIndex in book.tracksBySource[index] {
            let track = Int(trackIndex)
            let start = book.tracks[track].timeframe.barStart(of: quote.time, sessionOpen: session?.sessionOpen)
            if let forming = bars[track].formingStart, start > forming {
                closeBar(track, provider: provider, into: &outcome)
            }
            let barStart = max(start, bars[track].formingStart ?? start)
            let startsBar = bars[track].formingStart != barStart
            bars[track].form(quote, start: barStart, volume: nil)
            bars[track].takeDayVolume(quote.dayVolume?.doubleValue, startsBar: startsBar)
            bars[track].formedAt = now
            if book.tracks[track].hasTickSlots {
                let values = bars[track].previewValues()
                evaluateTrack(track, values: values, quote: quote, trigger: .tick, provider: provider, into: &outcome)
            }
        }
    }

    /// Closes every forming bar whose end has passed by its source's grace (the daemon passes
    /// one poll interval of the source's provider: a bar closes when the next one's first quote
    /// comes, or one poll after its end) and whose last quote came at least that long ago (a
    /// source still quoting, such as a replay of past prices, closes its bars by its quotes);
    /// returns what its rules fired. `provider` names the provider an alert carries, by source.
    public mutating func closeBars(now: Timestamp, graceMilliseconds grace: (Int) -> Int64,
                                   provider: (Int) -> String?) -> Outcome {
        var outcome = Outcome(acceptance: .accepted, alerts: [], suppressed: [])
        for track in book.tracks.indices {
            let source = book.tracks[track].source
            guard let start = bars[track].formingStart else { continue }
            let wait = grace(source)
            guard book.tracks[track].timeframe.barEnd(ofBarStartingAt: start) &+ wait <= now.milliseconds,
                  (bars[track].formedAt?.milliseconds ?? .min) &+ wait <= now.milliseconds else { continue }
            closeBar(track, provider: provider(source), into: &outcome)
        }
        return outcome
    }

    private mutating func closeBar(_ track: Int, provider: String?, into outcome: inout Outcome) {
        guard let quote = bars[track].closeBar() else { return }
        evaluateTrack(track, values: bars[track].values, quote: quote, trigger: .close, provider: provider, into: &outcome)
    }

    /// Evaluates a track's slots of one trigger with the series' `values`: the tested series
    /// takes the price's place in the rule's state machine, and a level series its value's.
    /// A slot any of whose series is undefined is not evaluated (its series are warming up).
    private mutating func evaluateTrack(_ track: Int, values: [Double?], quote: Quote, trigger: BarTrigger,
                                        provider: String?, into outcome: inout Outcome) {
        for slot in book.tracks[track].slots where slot.trigger == trigger {
            outcome.barEvaluations += 1
            guard let ofValue = values[slot.of].flatMap(ExactDecimal.init(fast:)) else { continue }
            let slotIndex = Int(slot.slot)
            var check = book.checks[slotIndex]
            var levelValue = ExactDecimal(scaled: check.value)
            if let level = slot.level {
                guard let value = values[level].flatMap(ExactDecimal.init(fast:)) else { continue }
                levelValue = value
                check.value = value.scaled
            }
            var base: ExactDecimal?
            if check.isPercent {
                if let window = check.windowMilliseconds {
                    base = bars[track].valueHistories[slot.of].price(atOrBefore: Timestamp(milliseconds: quote.time.milliseconds &- window))
                } else {
                    base = quote.previousClose
                }
            }
            let before = machines[slotIndex].state
            let action = machines[slotIndex].evaluate(check, price: ofValue, time: quote.time, base: base)
            var reading: SeriesReading?
            if case .fire = action {
                let series = book.tracks[track].series
                reading = SeriesReading(timeframe: book.tracks[track].timeframe.description, of: series[slot.of].description,
                                        ofValue: ofValue, level: slot.level.map { series[$0].description } ?? levelValue.description,
                                        levelValue: check.isPercent ? (base ?? .zero) : levelValue)
            }
            record(action, slot: slotIndex, before: before, quote: quote, provider: provider, series: reading, into: &outcome)
        }
    }

    /// What one evaluation did, into `outcome`: a firing becomes an alert with its rule's sinks,
    /// a suppressed one is noted, and a changed state is kept for the store. A technical rule's
    /// alert carries the bar's last quote and its series' values in `series` (the machine's
    /// trigger holds the series' value; a percent rule's base and change are the series').
    @inline(__always)
    private mutating func record(_ action: RuleStateMachine.Action, slot slotIndex: Int, before: RuleState, quote: Quote,
                                 provider: String?, series: SeriesReading? = nil, into outcome: inout Outcome) {
        switch action {
        case .fire(var trigger):
            let ruleIndex = book.slots[slotIndex].rule
            let texts = texts(ofRule: ruleIndex)
            var series = series
            if series != nil {
                trigger.price = quote.price
                series?.condition = book.rules[ruleIndex].condition.key
            }
            // The rule's fields read in place: copying a whole `Rule` per alert was a tenth of
            // a bar close's reference counting (docs/benchmarks.md).
            outcome.alerts.append(PendingAlert(
                alert: Alert(ruleID: book.rules[ruleIndex].id, message: book.rules[ruleIndex].message,
                             fingerprint: texts.fingerprint, conditionText: texts.conditionText,
                             quote: quote, provider: provider, trigger: trigger, series: series, idPrefix: texts.idPrefix),
                sinks: book.rules[ruleIndex].notify))
        case .suppressedByCooldown:
            outcome.suppressed.append(book.slots[slotIndex].key)
        case .rearmed, .recordedSide, .none, .skipped:
            break
        }
        if trackChanges, !changedFlags[slotIndex], machines[slotIndex].state != before {
            changedFlags[slotIndex] = true
            changedSlots.append(slotIndex)
        }
    }

    /// Rebuilds a track from history (oldest first, as ``BarHistory/bars(from:timeframe:limit:placement:)``
    /// makes them): every bar before the newest is closed, and the newest forms unless the
    /// track is already forming a bar at least as new (a live quote came first). Rules are not
    /// evaluated on history: their states stay as stored. The warm-up, at start, after a
    /// reload and when a provider's history arrives.
    public mutating func rebuildTrack(_ index: Int, from history: [BarHistory.Bar]) {
        let track = book.tracks[index]
        let live = bars[index]
        var state = BarTrackState(track: track)
        let symbol = book.sources[track.source].symbol
        for (position, bar) in history.enumerated() {
            let isNewest = position == history.count - 1
            if let forming = live.formingStart, bar.start >= forming { break }
            state.form(Quote(symbol: symbol, price: bar.close, time: bar.time), start: bar.start, volume: bar.volume?.doubleValue)
            if !isNewest || live.formingStart != nil { _ = state.closeBar() }
        }
        if let quote = live.formingQuote, let start = live.formingStart {
            state.form(quote, start: start, volume: live.formingVolume)
            state.lastDayVolume = live.lastDayVolume
            state.formedAt = live.formedAt
        }
        bars[index] = state
    }

    /// The index of the track of `source` and `timeframe`, if a rule needs one.
    public func track(ofSource source: Int, timeframe: Timeframe) -> Int? {
        book.tracksBySource[source].lazy.map(Int.init).first { book.tracks[$0].timeframe == timeframe }
    }

    /// Takes a track's state carried over from a previous engine (a reload keeps what it had
    /// when the track's series are the same).
    public mutating func adoptBars(track index: Int, _ state: BarTrackState) { bars[index] = state }

    /// Whether a provider marks the quote as pre- or post-market (Yahoo's `marketState`).
    static func isExtendedHours(_ marketState: String?) -> Bool {
        switch marketState?.uppercased() {
        case "PRE", "PREPRE", "POST", "POSTPOST": true
        default: false
        }
    }

    /// The states changed since the last drain, keyed for the store, with their fingerprints.
    public mutating func drainChangedStates() -> [RuleStateKey: StoredRuleState] {
        var result: [RuleStateKey: StoredRuleState] = [:]
        result.reserveCapacity(changedSlots.count)
        for slotIndex in changedSlots {
            let slot = book.slots[slotIndex]
            result[slot.key] = StoredRuleState(fingerprint: texts(ofRule: slot.rule).fingerprint, state: machines[slotIndex].state)
            changedFlags[slotIndex] = false
        }
        changedSlots.removeAll(keepingCapacity: true)
        return result
    }
}

extension AlertEngine {
    /// The strings an alert or a stored state takes from its rule.
    struct RuleTexts: Sendable {
        let fingerprint: String
        let conditionText: String
        /// The rule's part of its alerts' ids, hashed once.
        let idPrefix: FNV1a128
    }

    /// The texts of rule `index`, made at the first need and kept.
    private mutating func texts(ofRule index: Int) -> RuleTexts {
        if let texts = ruleTexts[index] { return texts }
        let fingerprint = book.rules[index].fingerprint
        let texts = RuleTexts(fingerprint: fingerprint, conditionText: book.rules[index].conditionText,
                              idPrefix: AlertID.prefix(rule: book.rules[index].id, fingerprint: fingerprint))
        ruleTexts[index] = texts
        return texts
    }
}
