import GRDB
import PriceWatchCore

extension SQLiteAlertStore: CandleStore {
    public func recordQuotes(_ quotes: [Quote]) async throws {
        guard !quotes.isEmpty else { return }
        try await write("recording price history") { db in
            for quote in quotes where quote.price.isPositive { try CandleTable.record(quote, in: db) }
        }
    }

    public func storeCandles(_ candles: [Candle], symbol: String) async throws {
        let kept = candles.filter(CandleBuilder.isConsistent)
        guard !kept.isEmpty else { return }
        try await write("storing backfilled candles") { db in
            for candle in kept { try CandleTable.insertBackfilled(candle, symbol: symbol, in: db) }
        }
    }

    @discardableResult
    public func pruneCandles(before cutoff: Timestamp) async throws -> Int {
        try await write("pruning the price history") { db in try CandleTable.prune(before: cutoff, in: db) }
    }

    /// Stored candles of `interval`; a period without one is aggregated from the coarsest finer
    /// interval stored for it (`CandleStore`'s contract).
    public func candles(symbol: String, interval: CandleInterval, from: Timestamp, to: Timestamp) async throws -> [Candle] {
        guard from < to else { return [] }
        let widths = CandleInterval.allCases.filter { $0.seconds <= interval.seconds }
        // Finer candles of the first period may start before `from`.
        let earliest = CandleBuilder.start(of: from, interval: interval)
        let stored = try await read("reading price history") { db in
            try CandleTable.candles(symbol: symbol, intervals: widths, from: earliest, to: to, in: db)
        }
        var byPeriod: [Timestamp: [Candle]] = [:]
        for candle in stored { byPeriod[CandleBuilder.start(of: candle.time, interval: interval), default: []].append(candle) }
        var result: [Candle] = []
        for (period, parts) in byPeriod where period >= from {
            if let native = parts.first(where: { $0.interval == interval }) {
                result.append(native)
            } else if let coarsest = parts.map(\.interval.seconds).max() {
                result += CandleBuilder.aggregate(parts.filter { $0.interval.seconds == coarsest }, to: interval)
            }
        }
        return result.sorted { $0.time < $1.time }
    }

    /// The currency of the newest stored quote of `symbol` (any provider), nil when none says.
    public func latestCurrency(symbol: String) async throws -> String? {
        try await read("reading the latest currency") { db in
            try String.fetchOne(db, sql: """
                SELECT currency FROM quote WHERE symbol = ? AND currency IS NOT NULL ORDER BY time DESC LIMIT 1
                """, arguments: [symbol])
        }
    }
}
