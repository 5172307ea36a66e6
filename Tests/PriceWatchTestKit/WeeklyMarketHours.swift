import Foundation
import PriceWatchCore

/// A small ``MarketHours`` for tests and benchmarks: each market has the same sessions every
/// weekday (Monday to Friday) in its IANA time zone, with optional lunch breaks, and no
/// holidays; symbols are assigned to markets by name. A market listed with no sessions is open
/// all the time (crypto); an unlisted market is unknown (open, as the protocol says).
public struct WeeklyMarketHours: MarketHours {
    /// One regular session: local opening and closing times, minutes after midnight.
    public struct Session: Sendable, Hashable {
        public var open: Int
        public var close: Int

        /// `Session("09:30", "16:00")`.
        public init(_ open: String, _ close: String) {
            self.open = Self.minutes(open)
            self.close = Self.minutes(close)
        }

        static func minutes(_ text: String) -> Int {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            return (parts.first ?? 0) * 60 + (parts.dropFirst().first ?? 0)
        }
    }

    /// A market's zone and weekday sessions (empty: never closes).
    public struct Market: Sendable, Hashable {
        public var timeZone: String
        public var sessions: [Session]

        public init(timeZone: String, sessions: [Session]) {
            self.timeZone = timeZone
            self.sessions = sessions
        }
    }

    public let markets: [MarketIdentifier: Market]
    public let symbols: [String: MarketIdentifier]

    public init(markets: [MarketIdentifier: Market], symbols: [String: MarketIdentifier]) {
        self.markets = markets
        self.symbols = symbols
    }

    /// New York, Xetra, Tokyo (with its lunch break) and crypto, as their regular sessions are.
    public static func sample(symbols: [String: MarketIdentifier]) -> WeeklyMarketHours {
        WeeklyMarketHours(markets: [
            MarketIdentifier("XNYS"): Market(timeZone: "America/New_York", sessions: [Session("09:30", "16:00")]),
            MarketIdentifier("XETR"): Market(timeZone: "Europe/Berlin", sessions: [Session("09:00", "17:30")]),
            MarketIdentifier("XTKS"): Market(timeZone: "Asia/Tokyo", sessions: [Session("09:00", "11:30"), Session("12:30", "15:00")]),
            .crypto: Market(timeZone: "UTC", sessions: []),
        ], symbols: symbols)
    }

    public func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? { symbols[symbol] }

    public func timeZone(of market: MarketIdentifier) -> String? { markets[market]?.timeZone }

    public func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
        guard let definition = markets[market], !definition.sessions.isEmpty,
              let zone = TimeZone(identifier: definition.timeZone) else {
            return .open(until: Timestamp(milliseconds: .max))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000)
        let today = calendar.startOfDay(for: date)
        // The sessions of the day before through two weeks on, in order.
        for offset in -1...14 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { continue }
            let weekday = calendar.component(.weekday, from: day) // 1 = Sunday, 7 = Saturday
            guard (2...6).contains(weekday) else { continue }
            for session in definition.sessions {
                guard let open = at(session.open, on: day, calendar), let close = at(session.close, on: day, calendar) else { continue }
                if instant < open { return .closed(until: open) }
                if instant < close { return .open(until: close) }
            }
        }
        return .closed(until: nil)
    }

    private func at(_ minutes: Int, on day: Date, _ calendar: Calendar) -> Timestamp? {
        calendar.date(bySettingHour: minutes / 60, minute: minutes % 60, second: 0, of: day)
            .map { Timestamp(milliseconds: Int64(($0.timeIntervalSince1970 * 1000).rounded())) }
    }
}
