/// How far back `pricewatch history --range` looks, and the candle width it uses by default.
public enum HistoryRange: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case oneDay = "1d"
    case fiveDays = "5d"
    case oneMonth = "1mo"
    case sixMonths = "6mo"
    case oneYear = "1y"
    case fiveYears = "5y"
    case max

    /// The range's length in seconds; `max` reaches back to 1970.
    public var seconds: Int64 {
        switch self {
        case .oneDay: 86_400
        case .fiveDays: 5 * 86_400
        case .oneMonth: 31 * 86_400
        case .sixMonths: 183 * 86_400
        case .oneYear: 366 * 86_400
        case .fiveYears: 5 * 366 * 86_400
        case .max: Int64(Int32.max)
        }
    }

    /// The default interval: a few hundred candles at most for every range but `max`.
    public var defaultInterval: CandleInterval {
        switch self {
        case .oneDay: .oneMinute
        case .fiveDays: .fiveMinutes
        case .oneMonth: .oneHour
        case .sixMonths, .oneYear, .fiveYears, .max: .oneDay
        }
    }

    /// The start of the range that ends at `end` (never before the epoch).
    public func start(endingAt end: Timestamp) -> Timestamp {
        Timestamp(milliseconds: Swift.max(0, end.milliseconds - seconds * 1000))
    }

    public var description: String { rawValue }
}
