import Logging
import PriceWatchCore

/// One look at the calendars (`docs/events.md`, "Calendar events"): each symbol a calendar rule
/// watches has its calendar read when it was not read for ``refreshAge`` (a day), the read
/// reconciled with what is stored (``CalendarReconciliation``: a moved date is a new event
/// with its note), and every reminder now due (``EventReminder``) and not yet sent queued in
/// the outbox as an `event` notification, then recorded as sent.
///
/// Once per rule and event: the notification's id comes from the rule and the event's id, the
/// outbox queues an id once, and the reminder is recorded only after it is queued. A source
/// that fails is logged and read again at the next look; the other symbols go on.
public struct CalendarWatch: Sendable {
    private let store: any CompanyEventStore
    private let outbox: any OutboxStore
    private let hours: any MarketHours
    private let logger: Logger

    /// How old a symbol's calendar may be before it is read again.
    public static var refreshAge: RuleDuration { RuleDuration(seconds: 86_400)! }

    public init(store: any CompanyEventStore, outbox: any OutboxStore, hours: any MarketHours, logger: Logger) {
        self.store = store
        self.outbox = outbox
        self.hours = hours
        self.logger = logger
    }

    /// Reads what is due from `source`, then queues the reminders due at `now`; returns how
    /// many were queued. Store errors are thrown; a source's error is logged.
    @discardableResult
    public func pass(rules: [EventRule], from source: any CompanyCalendarSource, now: Timestamp) async throws -> Int {
        try await pass(rules: rules, from: [source], now: now)
    }

    /// ``pass(rules:from:now:)`` with several sources, each read for every symbol (each event
    /// keeps its source; one listed alike by two sources is one event).
    @discardableResult
    public func pass(rules: [EventRule], from sources: [any CompanyCalendarSource], now: Timestamp) async throws -> Int {
        let rules = rules.filter { $0.enabled && $0.event.isCalendarDate }
        var symbols: [String] = []
        for rule in rules { for symbol in rule.symbols where !symbols.contains(symbol) { symbols.append(symbol) } }
        guard !symbols.isEmpty else { return 0 }
        let readTimes = try await store.calendarReadTimes(of: symbols)
        for symbol in symbols {
            if let read = readTimes[symbol], now.milliseconds - read.milliseconds < Self.refreshAge.seconds * 1000 { continue }
            try Task.checkCancellation()
            var fetchedAll: [CompanyEvent] = []
            var read = false
            for source in sources {
                let fetched: [CompanyEvent]
                do {
                    fetched = try await source.events(for: symbol)
                } catch {
                    logger.warning("could not read the calendar of \(symbol) from \(source.calendarName): \(error); trying again later",
                                   metadata: ["symbol": "\(symbol)"])
                    continue
                }
                read = true
                let stored = try await store.companyEvents(of: [symbol])
                let update = CalendarReconciliation.reconcile(stored: stored, fetched: fetched, today: CivilDate(utcDateOf: now))
                try await store.storeCalendar(of: symbol, events: update.store, drop: update.drop, now: now)
                for event in update.store where event.movedFrom != nil && !stored.contains(where: { $0.id == event.id }) {
                    logger.notice("\(event.text) (\(event.source))", metadata: ["symbol": "\(symbol)"])
                }
                fetchedAll += fetched
            }
            guard read else { continue }
            let names = sources.map(\.calendarName).joined(separator: ", ")
            let kinds = Set(rules.filter { $0.symbols.contains(symbol) }.map(\.event))
            for kind in kinds.sorted(by: { $0.rawValue < $1.rawValue })
            where !fetchedAll.contains(where: { $0.kind == kind && ($0.lastDate ?? $0.date) >= CivilDate(utcDateOf: now) }) {
                logger.info("no upcoming \(kind.rawValue) date known for \(symbol) (\(names))", metadata: ["symbol": "\(symbol)"])
            }
        }
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
        logger.debug("calendars looked at: \(symbols.count) symbols, \(due.count) reminders due, \(queued) queued")
        return queued
    }
}
