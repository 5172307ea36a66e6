/// The previous close a stored quote carried, at the quote's time: what a `from =
/// "previous_close"` rule compared the quote with, and what the history CSV writes beside the
/// candle that quote closed.
public struct QuotedPreviousClose: Sendable, Hashable {
    public var time: Timestamp
    public var previousClose: ExactDecimal

    public init(time: Timestamp, previousClose: ExactDecimal) {
        self.time = time
        self.previousClose = previousClose
    }
}
