/// Reads a symbol's price history (the daemon's own polls and backfilled candles) for the
/// terminal chart, the watchlist's sparkline, digests, chart images and the dashboard.
///
/// The contract:
///
/// - ``candles(symbol:interval:from:to:)`` returns the candles whose start lies in
///   `from ..< to`, oldest first, at most one per interval start; intervals with no data are
///   absent (never filled in). Empty when nothing is stored.
/// - Reading never blocks writers for long and never fails because of data it cannot use:
///   a bad stored row is skipped, not thrown.
/// - Errors thrown are the store's own (unreadable file, I/O): callers show them, they do not
///   retry.
public protocol PriceHistoryReader: Sendable {
    func candles(symbol: String, interval: CandleInterval, from: Timestamp, to: Timestamp) async throws -> [Candle]
}
