/// The length of the bars a technical rule is evaluated on (`timeframe = "1d"`,
/// `docs/rules.md`, "Technical rules").
///
/// A bar's close is its last quote. Bars of a market that never closes, or of a symbol on no
/// known market, are aligned to UTC (a 15m bar starts at `floor(unix time / 900) * 900`; a
/// week starts on Monday 00:00 UTC). Bars of an exchange's regular session are aligned to the
/// session's open: an intraday bar starts at `open + k * length`, and a `1d` bar is the whole
/// trading session (its key is the session's open).
public struct Timeframe: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The bar length in seconds (a day is 86,400 and a week 604,800 seconds).
    public let seconds: Int64

    private init(seconds: Int64) { self.seconds = seconds }

    /// Every timeframe a rule may name, shortest first.
    public static let all: [Timeframe] = [60, 300, 900, 1_800, 3_600, 7_200, 14_400, 86_400, 604_800].map(Timeframe.init(seconds:))

    /// The names of ``all``, as written in rules.
    public static let names: [String] = all.map(\.description)

    public static let oneDay = Timeframe(seconds: 86_400)
    public static let oneWeek = Timeframe(seconds: 604_800)

    /// The timeframe written as `text` (`"15m"`, `"4h"`, `"1d"`), nil for any other text.
    public init?(_ text: String) {
        guard let index = Self.names.firstIndex(of: text) else { return nil }
        self = Self.all[index]
    }

    /// `1m`, `15m`, `1h`, `1d`, `1w`.
    public var description: String {
        switch seconds {
        case 604_800: "1w"
        case 86_400: "1d"
        case let s where s % 3_600 == 0: "\(s / 3_600)h"
        default: "\(seconds / 60)m"
        }
    }

    /// Whether a bar is a whole trading day or longer (aligned to days, not to the open).
    public var isDaily: Bool { seconds >= 86_400 }

    public static func < (lhs: Timeframe, rhs: Timeframe) -> Bool { lhs.seconds < rhs.seconds }

    /// The start of the bar `time` belongs to, in milliseconds. `sessionOpen` is the open of
    /// the exchange session the quote lies in (nil: UTC alignment).
    public func barStart(of time: Timestamp, sessionOpen: Timestamp?) -> Int64 {
        let length = seconds * 1_000
        if let open = sessionOpen?.milliseconds, !isDaily {
            return open + Self.floorDivide(time.milliseconds - open, length) * length
        }
        if seconds == 86_400, let open = sessionOpen?.milliseconds { return open }
        if seconds == 604_800 {
            // The epoch was a Thursday: weeks start three days earlier, on a Monday.
            let day = Self.floorDivide((sessionOpen ?? time).milliseconds, 86_400_000)
            return (day - Self.floorModulo(day + 3, 7)) * 86_400_000
        }
        return Self.floorDivide(time.milliseconds, length) * length
    }

    /// When a bar that started at `start` ends (its nominal end: the next bar's start).
    public func barEnd(ofBarStartingAt start: Int64) -> Int64 { start + seconds * 1_000 }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }
}
