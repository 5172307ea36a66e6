import PriceWatchCore

/// `pricewatch market`: every known market open or closed at an instant, or one market's
/// sessions in a date range.
public enum ShowMarkets {
    /// One market at an instant.
    public struct Overview: Sendable {
        public var market: MarketIdentifier
        public var name: String
        public var timeZone: String
        public var status: MarketStatus
        /// The close of the session under way, or of the next one, when it closes early.
        public var earlyClose: Timestamp?
    }

    /// A day of one market: its session, or the holiday that closes it (weekends are left out).
    public struct Day: Sendable {
        public var date: CivilDate
        public var session: TradingSession?
        /// The holiday's name on a closed weekday.
        public var holiday: String?
        /// Whether the session closes before the regular close.
        public var isEarlyClose: Bool
        /// Whether the session opens after the regular open.
        public var isLateOpen: Bool
    }

    public enum LookupError: Error, CustomStringConvertible {
        case unknownMarket(String, suggestion: String?, known: [String])

        public var description: String {
            switch self {
            case .unknownMarket(let code, let suggestion, let known):
                let hint = suggestion.map { " (did you mean \($0)?)" } ?? ""
                let list = known.isEmpty ? "no calendars are loaded" : "known: \(known.joined(separator: ", "))"
                return ControlCharacters.escaped("unknown market '\(code)'\(hint); \(list)")
            }
        }
    }

    /// Every known market at `now`, by code.
    public static func overview(_ calendars: MarketCalendars, now: Timestamp) -> [Overview] {
        calendars.markets.compactMap { code in
            guard let calendar = calendars.calendar(for: code) else { return nil }
            return Overview(market: code, name: calendar.name, timeZone: calendar.timeZoneIdentifier, status: calendar.status(at: now),
                            earlyClose: calendar.earlyClose(at: now))
        }
    }

    /// The calendar of `code` (a market or an alias), or the error naming the closest code.
    public static func calendar(_ calendars: MarketCalendars, code: String) -> Result<TradingCalendar, LookupError> {
        if let calendar = calendars.calendar(for: MarketIdentifier(code)) { return .success(calendar) }
        let known = calendars.knownCodes.map(\.rawValue)
        // An exchange's common name (`NYSE`, `LSE`): markets go by their MIC code.
        if let mic = SymbolMarketResolver.exchangeCodes[code.uppercased()]?.rawValue, known.contains(mic) {
            return .failure(.unknownMarket(code, suggestion: "\(mic), the MIC code of \(code.uppercased())", known: known))
        }
        return .failure(.unknownMarket(code, suggestion: Suggestion.closest(to: code.uppercased(), among: known), known: known))
    }

    /// The market's date today at `now`, and the Monday ... Sunday week around it.
    public static func week(of calendar: TradingCalendar, at now: Timestamp) -> (first: CivilDate, last: CivilDate) {
        let today = calendar.localDate(of: now)
        let monday = today.adding(days: -(today.weekday.rawValue - 1))
        return (monday, monday.adding(days: 6))
    }

    /// The market's trading days and weekday holidays dated `first ... last`.
    public static func days(of calendar: TradingCalendar, from first: CivilDate, through last: CivilDate) -> [Day] {
        guard first <= last else { return [] }
        var result: [Day] = []
        for dayNumber in first.dayNumber...last.dayNumber {
            let date = CivilDate(dayNumber: dayNumber)
            guard calendar.tradingDays.contains(date.weekday) else { continue }
            if let session = calendar.session(on: date) {
                result.append(Day(date: date, session: session, holiday: nil, isEarlyClose: calendar.closesEarly(session),
                                  isLateOpen: calendar.opensLate(session)))
            } else {
                result.append(Day(date: date, session: nil, holiday: calendar.holidayName(on: date) ?? "closed",
                                  isEarlyClose: false, isLateOpen: false))
            }
        }
        return result
    }
}
