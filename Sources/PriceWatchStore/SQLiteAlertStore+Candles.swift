import GRDB
import PriceWatchCore

extension SQLiteAlertStore: CandleStore {
    public func recordQuotes(_ quotes: [Quote]) async throws {
        guard !quotes.isEmpty else { return }
        try await write("recording price history") { db in
            try CandleTable.record(quotes.filter(\.price.isPositive), in: db)
        }
    }

    public func storeCandles(_ candles: [Candle], symbol: String) async throws {
        let kept = candles.filter(CandleBuilder.isConsistent)
        guard !kept.isEmpty else { return }
        try await write("storing backfilled candles") { db in
            try CandleTable.insertBackfilled(kept, symbol: symbol, in: db)
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

    /// The previous close each stored quote of `symbol` (any provider) carried, of the quotes
    /// at or after `from` and before `to`, oldest first; quotes without one are left out. The
    /// previous closes `pricewatch history --format csv` writes, so that its rows replay to the
    /// alerts the live quotes gave.
    public func quotedPreviousCloses(symbol: String, from: Timestamp, to: Timestamp) async throws -> [QuotedPreviousClose] {
        try await read("reading the previous closes of the quotes") { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT time, previous_close FROM quote
                WHERE symbol = ? AND time >= ? AND time < ? AND previous_close IS NOT NULL ORDER BY time
                """, arguments: [symbol, from.milliseconds, to.milliseconds])
            var closes: [QuotedPreviousClose] = []
            while let row = try rows.next() {
                guard let time = try row.decode(Int64?.self, atIndex: 0), let close = try row.decode(Int64?.self, atIndex: 1)
                else { continue }
                closes.append(QuotedPreviousClose(time: Timestamp(milliseconds: time), previousClose: ExactDecimal(scaled: close)))
            }
            return closes
        }
    }

    /// The newest stored quote of every provider and symbol, with its previous close and
    /// currency (what `pricewatch watch` shows). One pass over the primary key; SQLite takes the
    /// bare columns of a `max()` aggregate from the row holding the maximum.
    public func latestQuoteDetails() async throws -> [ProviderSymbol: Quote] {
        try await read("reading the latest quotes") { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT provider, symbol, max(time), price, previous_close, currency, exchange FROM quote
                GROUP BY provider, symbol
                """)
            var quotes: [ProviderSymbol: Quote] = [:]
            while let row = try rows.next() {
                guard let provider = try row.decode(String?.self, atIndex: 0), let symbol = try row.decode(String?.self, atIndex: 1),
                      let time = try row.decode(Int64?.self, atIndex: 2), let price = try row.decode(Int64?.self, atIndex: 3)
                else { continue }
                quotes[ProviderSymbol(provider: provider, symbol: symbol)] = Quote(
                    symbol: symbol, price: ExactDecimal(scaled: price), time: Timestamp(milliseconds: time),
                    previousClose: try row.decode(Int64?.self, atIndex: 4).map(ExactDecimal.init(scaled:)),
                    currency: try row.decode(String?.self, atIndex: 5), exchange: try row.decode(String?.self, atIndex: 6))
            }
            return quotes
        }
    }
}
