import PriceWatchCore

extension SQLiteAlertStore: CompanyEventStore {
    public func companyEvents(of symbols: [String]?) async throws -> [CompanyEvent] {
        try await read("reading companies' calendars") { db in try CompanyEventTable.events(of: symbols, in: db) }
    }

    public func storeCalendar(of symbol: String, events: [CompanyEvent], drop: [String], now: Timestamp) async throws {
        try await write("storing the calendar of \(symbol)") { db in
            try CompanyEventTable.store(symbol, events: events, drop: drop, now: now, in: db)
        }
    }

    public func calendarReadTimes(of symbols: [String]) async throws -> [String: Timestamp] {
        try await read("reading when calendars were read") { db in try CompanyEventTable.readTimes(of: symbols, in: db) }
    }

    public func unsentReminders(_ reminders: [(rule: String, event: String)]) async throws -> Set<String> {
        guard !reminders.isEmpty else { return [] }
        return try await read("reading the reminders sent") { db in try CompanyEventTable.unsent(reminders, in: db) }
    }

    public func recordReminder(rule: String, event: String, now: Timestamp) async throws {
        try await write("recording a reminder") { db in try CompanyEventTable.record(rule: rule, event: event, now: now, in: db) }
    }
}
