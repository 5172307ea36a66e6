/// The acceptance rules of `docs/rules.md` ("Which quotes are evaluated"), as a pure function.
///
/// A quote is *rejected* (logged, nothing evaluated) when its price is not greater than zero
/// or its time is more than five minutes ahead of `now`; it is a *repeat* (silently skipped)
/// when its time is not later than the last accepted quote of the same symbol from the same
/// provider. Polling a closed market therefore never fires anything.
public enum QuoteAcceptance: Sendable, Hashable {
    case accepted
    case repeated
    case rejected(reason: String)

    /// How far ahead of the wall clock a quote time may be.
    public static let futureTolerance: Int64 = 5 * 60 * 1000

    /// Decides whether to accept `quote`. `now` is the wall-clock time (nil in backtests, where
    /// there is no "now"); `lastAccepted` is the time of the last accepted quote of the same
    /// symbol from the same provider.
    ///
    /// `requirePositivePrice` is false only for a portfolio rule's figures (a profit may be
    /// zero or negative).
    public static func decide(_ quote: Quote, lastAccepted: Timestamp?, now: Timestamp?,
                              requirePositivePrice: Bool = true) -> QuoteAcceptance {
        guard quote.price.isPositive || !requirePositivePrice else {
            return .rejected(reason: "price must be greater than zero, got \(quote.price)")
        }
        if let now, quote.time.milliseconds - now.milliseconds > futureTolerance {
            return .rejected(reason: "quote time \(quote.time) is more than 5 minutes after the current time \(now)")
        }
        if let lastAccepted, quote.time <= lastAccepted {
            return .repeated
        }
        return .accepted
    }
}
