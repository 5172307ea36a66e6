import PriceWatchCore

extension SQLiteAlertStore: CompanyEventStore {
    public func companyEvents(of symbols: [String]?) async throws -> [CompanyEvent] {
        try await read("reading companies' calendars") { db in try CompanyEventTable.events(of: symbols, in: db) }
    }

    public func storeCalendar(of symbol: String, source: String, events: [CompanyEvent], drop: [String], now: Timestamp) async throws {
        try await write("storing the calendar of \(symbol)") { db in
            try CompanyEventTable.store(symbol, source: source, events: events, drop: drop, now: now, in: db)
        }
    }

    public func recordCalendarFailure(of symbol: String, source: String, now: Timestamp) async throws {
        try await write("recording a failed read of the calendar of \(symbol)") { db in
            try CompanyEventTable.recordFailure(symbol, source: source, now: now, in: db)
        }
    }

    public func calendarReads(of symbols: [String]) async throws -> [CalendarRead] {
        guard !symbols.isEmpty else { return [] }
        return try await read("reading when calendars were read") { db in try CompanyEventTable.reads(of: symbols, in: db) }
    }

    public func unsentReminders(_ reminders: [(rule: String, event: String)]) async throws -> Set<String> {
        guard !reminders.isEmpty else { return [] }
        return try await read("reading the reminders sent") { db in try CompanyEventTable.unsent(reminders, in: db) }
    }

    public func recordReminder(rule: String, event: String, now: Timestamp) async throws {
        try await write("recording a reminder") { db in try CompanyEventTable.record(rule: rule, event: event, now: now, in: db) }
    }
}
