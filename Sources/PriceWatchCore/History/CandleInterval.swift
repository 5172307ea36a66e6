/// The width of one candle: the intervals `pricewatch history --interval` takes and the
/// providers' chart endpoints serve.
public enum CandleInterval: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case oneMinute = "1m"
    case fiveMinutes = "5m"
    case oneHour = "1h"
    case oneDay = "1d"

    /// The interval's length in seconds (a day is 86 400 s: daily candles are keyed by their
    /// session date, not by wall-clock arithmetic).
    public var seconds: Int64 {
        switch self {
        case .oneMinute: 60
        case .fiveMinutes: 300
        case .oneHour: 3_600
        case .oneDay: 86_400
        }
    }

    public var description: String { rawValue }
}
