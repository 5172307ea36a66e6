/// The price-history role of the store: candles recorded from the daemon's polls, read back
/// through ``PriceHistoryReader``, pruned past their own retention (`history_retention`).
///
/// The contract:
///
/// - ``recordQuotes(_:)`` folds each quote into the one-minute candle of its symbol that holds
///   the quote's time (``CandleBuilder/start(of:interval:)``): the first quote of a minute
///   opens it, later ones raise its high, lower its low and, when not older than the newest
///   quote already folded in, set its close. A repeated quote changes nothing. All quotes of a
///   call are written in one transaction.
/// - Candles are keyed by symbol alone: the same symbol polled from two providers feeds one
///   history.
/// - ``candles(symbol:interval:from:to:)`` answers from stored candles of that interval and,
///   where a period has none, aggregates the finer stored candles of it.
public protocol CandleStore: PriceHistoryReader {
    /// Folds quotes into one-minute candles; see the protocol's contract.
    func recordQuotes(_ quotes: [Quote]) async throws

    /// Stores candles fetched from a provider's chart endpoint; a candle already stored (same
    /// symbol, interval and start) is kept as it is.
    func storeCandles(_ candles: [Candle], symbol: String) async throws

    /// Deletes candles that start before `cutoff`. Returns how many went.
    @discardableResult
    func pruneCandles(before cutoff: Timestamp) async throws -> Int
}
