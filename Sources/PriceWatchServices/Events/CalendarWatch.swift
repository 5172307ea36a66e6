import Logging
import PriceWatchCore

/// The calendars of the calendar rules' symbols (`docs/events.md`, "Calendar events"), in two
/// steps:
///
/// - ``refresh(rules:from:now:)`` (the `calendars` job, ``CalendarRefresh``): each source's
///   calendar of each symbol it lists is read when that source last read it ``refreshAge`` (a
///   day) ago or more, and, after a failed read, not before ``retryAfterFailure`` (an hour);
///   each read is reconciled with what is stored (``CalendarReconciliation``: a moved date is a
///   new event with its note) and recorded per symbol and source, so one source failing while
///   another answers is retried on its own.
/// - ``remind(rules:now:)`` (every minute, ``CalendarService``): every reminder now due
///   (``EventReminder``) and not yet sent is queued in the outbox as an `event` notification,
///   then recorded as sent.
///
/// Once per rule and event: the notification's id comes from the rule and the event's id, the
/// outbox queues an id once, and the reminder is recorded only after it is queued.
public struct CalendarWatch: Sendable {
    private let store: any CompanyEventStore
    private let outbox: any OutboxStore
    private let hours: any MarketHours
    private let logger: Logger

    /// How old a source's calendar of a symbol may be before it is read again.
    public static var refreshAge: RuleDuration { RuleDuration(seconds: 86_400)! }
    /// How long after a failed read the same source is asked again for the same symbol.
    public static var retryAfterFailure: RuleDuration { RuleDuration(seconds: 3_600)! }

    public init(store: any CompanyEventStore, outbox: any OutboxStore, hours: any MarketHours, logger: Logger) {
        self.store = store
        self.outbox = outbox
        self.hours = hours
        self.logger = logger
    }

    /// ``refresh(rules:from:now:)`` then ``remind(rules:now:)``; returns how many reminders were queued.
    @discardableResult
    public func pass(rules: [EventRule], from source: any CompanyCalendarSource, now: Timestamp) async throws -> Int {
        try await pass(rules: rules, from: [source], now: now)
    }

    /// ``refresh(rules:from:now:)`` then ``remind(rules:now:)``; returns how many reminders were queued.
    @discardableResult
    public func pass(rules: [EventRule], from sources: [any CompanyCalendarSource], now: Timestamp) async throws -> Int {
        try await refresh(rules: rules, from: sources, now: now)
        return try await remind(rules: rules, now: now)
    }

    /// The calendar symbols of `rules` (enabled calendar rules), in the rules' order.
    static func symbols(of rules: [EventRule]) -> [String] {
        var symbols: [String] = []
        for rule in rules where rule.enabled && rule.event.isCalendarDate {
            for symbol in rule.symbols where !symbols.contains(symbol) { symbols.append(symbol) }
        }
        return symbols
    }

    /// Reads every calendar that is due from `sources` and stores what it lists; returns how
    /// many reads succeeded. Store errors are thrown; a source's error is logged and recorded.
    @discardableResult
    public func refresh(rules: [EventRule], from sources: [any CompanyCalendarSource], now: Timestamp) async throws -> Int {
        let rules = rules.filter { $0.enabled && $0.event.isCalendarDate }
        let symbols = Self.symbols(of: rules)
        guard !symbols.isEmpty, !sources.isEmpty else { return 0 }
        let reads = try await store.calendarReads(of: symbols)
        let today = CivilDate(utcDateOf: now)
        var succeeded = 0
        // Per symbol read: the sources that answered and what they listed.
        var read: [String: (sources: [String], events: [CompanyEvent])] = [:]
        var readSymbols: [String] = []
        for source in sources {
            try Task.checkCancellation()
            let name = source.calendarName
            let due = symbols.filter { symbol in
                source.lists(symbol)
                    && (reads.first { $0.symbol == symbol && $0.source == name } ?? CalendarRead(symbol: symbol, source: name))
                        .isDue(now: now, refreshAge: Self.refreshAge, retryAfterFailure: Self.retryAfterFailure)
            }
            guard !due.isEmpty else { continue }
            let results = await source.events(forEach: due)
            for symbol in due {
                switch results[symbol] {
                case nil:
                    continue
                case .failure(let error):
                    logger.warning("could not read the calendar of \(symbol) from \(name): \(error); trying again in an hour",
                                   metadata: ["symbol": "\(symbol)"])
                    try await store.recordCalendarFailure(of: symbol, source: name, now: now)
                case .success(let fetched):
                    let stored = try await store.companyEvents(of: [symbol])
                    let update = CalendarReconciliation.reconcile(stored: stored, fetched: fetched, today: today)
                    try await store.storeCalendar(of: symbol, source: name, events: update.store, drop: update.drop, now: now)
                    for event in update.store where event.movedFrom != nil && !stored.contains(where: { $0.id == event.id }) {
                        logger.notice("\(event.text) (\(event.source))", metadata: ["symbol": "\(symbol)"])
                    }
                    succeeded += 1
                    if read[symbol] == nil { readSymbols.append(symbol) }
                    read[symbol, default: ([], [])].sources.append(name)
                    read[symbol, default: ([], [])].events += fetched
                }
            }
        }
        // Said once per read, never guessed: a kind watched that no source read lists ahead.
        for symbol in readSymbols {
            guard let (names, events) = read[symbol] else { continue }
            let kinds = Set(rules.filter { $0.symbols.contains(symbol) }.map(\.event))
            for kind in kinds.sorted(by: { $0.rawValue < $1.rawValue })
            where !events.contains(where: { $0.kind == kind && ($0.lastDate ?? $0.date) >= today }) {
                logger.info("no upcoming \(kind.rawValue) date known for \(symbol) (\(names.joined(separator: ", ")))",
                            metadata: ["symbol": "\(symbol)"])
            }
        }
        logger.debug("calendars read: \(succeeded) reads for \(symbols.count) symbols from \(sources.count) sources")
        return succeeded
    }

    /// Queues every reminder of `rules` due at `now` and not yet sent; returns how many were
    /// queued. Store errors are thrown.
    @discardableResult
    public func remind(rules: [EventRule], now: Timestamp) async throws -> Int {
        let rules = rules.filter { $0.enabled && $0.event.isCalendarDate }
        let symbols = Self.symbols(of: rules)
        guard !symbols.isEmpty else { return 0 }
        let events = try await store.companyEvents(of: symbols)
        var due: [(rule: EventRule, event: CompanyEvent)] = []
        for rule in rules {
            for event in events where event.kind == rule.event && rule.symbols.contains(event.symbol)
                && EventReminder.isDue(event, before: rule.before, hours: hours, now: now) {
                due.append((rule, event))
            }
        }
        let unsent = try await store.unsentReminders(due.map { ($0.rule.id, $0.event.id) })
        var queued = 0
        for (rule, event) in due where unsent.contains(rule.id + "\u{0}" + event.id) {
            let content = CompanyEventNotification(event: event, rule: rule.id)
            let notification = OutgoingNotification(id: content.notificationID, time: now, content: content)
            if try await outbox.enqueue(notification, sinks: rule.notify, now: now) {
                queued += 1
                logger.info("reminder for rule '\(rule.id)' queued: \(event.text)",
                            metadata: ["rule": "\(rule.id)", "symbol": "\(event.symbol)", "notification": "\(notification.id)"])
            }
            try await store.recordReminder(rule: rule.id, event: event.id, now: now)
        }
        if !due.isEmpty { logger.debug("reminders: \(due.count) due, \(queued) queued") }
        return queued
    }
}
