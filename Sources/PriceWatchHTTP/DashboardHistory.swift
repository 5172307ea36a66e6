import PriceWatchCore

/// A symbol's prices over one of the symbol page's ranges (5D to 5Y), as `pricewatch history`
/// reads them: the stored candles, and the provider's chart endpoint for what the daemon did
/// not record.
public enum DashboardHistory: Sendable {
    /// The candles' closes, oldest first; `startingClose` is the close before the range (the
    /// chart's reference line), `source` says where they came from (`stored`,
    /// `stored + yahoo`), `note` why they may stop short (a provider without a chart endpoint).
    /// `yearRange` is the candles' 52-week range (``YearRange``) when the range reaches back
    /// 52 weeks (1Y, 5Y), nil otherwise and when there is no candle in them.
    case read(points: [HistoryPoint], startingClose: ExactDecimal?, source: String, note: String?, yearRange: YearRange? = nil)
    /// Nothing to show, and why (no stored history and no backfill, an unreadable store).
    case failed(String)
}
