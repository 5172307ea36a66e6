import PriceWatchCore

extension SQLiteAlertStore: NewsLedgerStore {
    public func newsRuleStarts(_ rules: [String], now: Timestamp) async throws -> [String: Timestamp] {
        try await write("recording when news rules started") { db in try NewsLedgerTable.starts(of: rules, now: now, in: db) }
    }

    public func unseenHeadlines(_ headlines: [NewsHeadline]) async throws -> [NewsHeadline] {
        guard !headlines.isEmpty else { return [] }
        return try await read("reading the news seen") { db in try NewsLedgerTable.unseen(headlines, in: db) }
    }

    public func recordSeenHeadlines(_ headlines: [NewsHeadline], now: Timestamp) async throws {
        guard !headlines.isEmpty else { return }
        try await write("recording the news seen") { db in try NewsLedgerTable.record(headlines, now: now, in: db) }
    }

    @discardableResult
    public func forgetHeadlines(seenBefore cutoff: Timestamp) async throws -> Int {
        try await write("forgetting old news") { db in try NewsLedgerTable.forget(seenBefore: cutoff, in: db) }
    }
}
