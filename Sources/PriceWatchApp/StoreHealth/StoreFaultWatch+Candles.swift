import PriceWatchCore

extension StoreFaultWatch {
    /// `store`'s price-history role, watched like every other role: a damaged file found while
    /// recording or pruning candles stops the daemon too.
    public func watching(_ store: any CandleStore) -> any CandleStore {
        WatchedCandleStore(store: store, watch: self)
    }
}

/// A ``CandleStore`` whose every call goes through a ``StoreFaultWatch``.
struct WatchedCandleStore: CandleStore {
    let store: any CandleStore
    let watch: StoreFaultWatch

    func recordQuotes(_ quotes: [Quote]) async throws {
        try await watch.watch { try await store.recordQuotes(quotes) }
    }

    func storeCandles(_ candles: [Candle], symbol: String) async throws {
        try await watch.watch { try await store.storeCandles(candles, symbol: symbol) }
    }

    func pruneCandles(before cutoff: Timestamp) async throws -> Int {
        try await watch.watch { try await store.pruneCandles(before: cutoff) }
    }

    func candles(symbol: String, interval: CandleInterval, from: Timestamp, to: Timestamp) async throws -> [Candle] {
        try await watch.watch { try await store.candles(symbol: symbol, interval: interval, from: from, to: to) }
    }
}
