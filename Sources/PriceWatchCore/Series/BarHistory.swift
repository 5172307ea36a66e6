/// Closed bars of one symbol and timeframe made from stored or fetched candles: what warms a
/// technical rule up at start, after a reload, and once a provider's chart endpoint answered.
///
/// Candles are grouped with the same alignment as live quotes (``Timeframe/barStart(of:sessionOpen:)``):
/// a bar's close is its last candle's close, and its time that candle's start. The newest bar
/// may still be forming: the engine decides (``AlertEngine/rebuildTrack(_:from:)``).
public enum BarHistory {
    /// One closed bar.
    public struct Bar: Sendable, Hashable {
        /// The bar's start (ms), as ``Timeframe/barStart(of:sessionOpen:)`` gives it.
        public var start: Int64
        public var time: Timestamp
        public var close: ExactDecimal
        public var volume: ExactDecimal?

        public init(start: Int64, time: Timestamp, close: ExactDecimal, volume: ExactDecimal? = nil) {
            self.start = start
            self.time = time
            self.close = close
            self.volume = volume
        }
    }

    /// The candle width that history of `timeframe` is read and fetched in: the widest one
    /// that divides it (a week is read in days).
    public static func candleInterval(for timeframe: Timeframe) -> CandleInterval {
        CandleInterval.allCases.filter { timeframe.seconds % $0.seconds == 0 }.max { $0.seconds < $1.seconds } ?? .oneMinute
    }

    /// How far back to read or fetch so that `bars` closed bars are likely covered: calendar
    /// time is longer than trading time (weekends, holidays, an exchange's hours), so intraday
    /// bars look back five times their span and days 1.6 times, plus two weeks.
    public static func lookBack(bars: Int, timeframe: Timeframe) -> Int64 {
        let span = Int64(bars) * timeframe.seconds * 1_000
        let factor: Int64 = timeframe.isDaily ? 16 : 50
        return span * factor / 10 + 14 * 86_400_000
    }

    /// The longest range one chart request asks for at a width: Yahoo's documented limits,
    /// the strictest of the chart endpoints (minutes for a week, five minutes for 60 days,
    /// hours for two years).
    public static func longestFetch(of interval: CandleInterval) -> Int64 {
        let day: Int64 = 86_400_000
        switch interval {
        case .oneMinute: return 7 * day
        case .fiveMinutes: return 59 * day
        case .oneHour: return 729 * day
        case .oneDay: return 40 * 365 * day
        }
    }

    /// The bars of `candles` (oldest first, any width that divides the timeframe), the newest
    /// `limit` of them. `placement` places a candle in its exchange's session; a candle outside
    /// every session of a known exchange is in no bar.
    public static func bars(from candles: [Candle], timeframe: Timeframe, limit: Int,
                            placement: (Timestamp) -> SessionPlacement = { _ in .unknownMarket }) -> [Bar] {
        var bars: [Bar] = []
        for candle in candles {
            let place = placement(candle.time)
            if case .outsideSession = place { continue }
            let start = timeframe.barStart(of: candle.time, sessionOpen: sessionOpenTime(place))
            if let last = bars.indices.last, bars[last].start == start {
                let volume = bars[last].volume.map { total in candle.volume.map { total.adding($0) } ?? total } ?? candle.volume
                bars[last] = Bar(start: start, time: candle.time, close: candle.close, volume: volume)
            } else if bars.last.map({ start > $0.start }) ?? true {
                bars.append(Bar(start: start, time: candle.time, close: candle.close, volume: candle.volume))
            }
        }
        return bars.count > limit ? Array(bars.suffix(limit)) : bars
    }

    /// Where an instant lies for an exchange's bars.
    public enum SessionPlacement: Sendable, Hashable {
        /// The symbol is on no known exchange (or a 24/7 market): bars are aligned to UTC.
        case unknownMarket
        /// Inside the regular session that opened at this time.
        case inSession(open: Timestamp)
        /// Outside every regular session of a known exchange.
        case outsideSession
    }

    private static func sessionOpenTime(_ placement: SessionPlacement) -> Timestamp? {
        if case .inSession(let open) = placement { return open }
        return nil
    }
}

extension ExactDecimal {
    /// The sum, saturating at the largest exact decimal (volumes add up, prices never do).
    func adding(_ other: ExactDecimal) -> ExactDecimal {
        let (sum, overflow) = scaled.addingReportingOverflow(other.scaled)
        return ExactDecimal(scaled: overflow ? .max : sum)
    }
}
