/// The `MarketHours` of the loaded trading calendars: what the daemon and the commands ask
/// about markets once `calendars/` and `calendars.d/` are read.
///
/// A market with no calendar (none loaded, or an unknown code) is open forever, as the
/// protocol asks; an alias (`XNAS`) answers with its calendar (`XNYS`).
public struct MarketCalendars: MarketHours {
    /// The calendars by their own code.
    public let calendars: [MarketIdentifier: TradingCalendar]
    private let codes: [MarketIdentifier: MarketIdentifier]
    public let resolver: SymbolMarketResolver

    public init(_ calendars: [TradingCalendar], resolver: SymbolMarketResolver = SymbolMarketResolver()) {
        var byCode: [MarketIdentifier: TradingCalendar] = [:]
        var codes: [MarketIdentifier: MarketIdentifier] = [:]
        for calendar in calendars {
            byCode[calendar.market] = calendar
            codes[calendar.market] = calendar.market
        }
        for calendar in calendars {
            for alias in calendar.aliases where byCode[alias] == nil { codes[alias] = calendar.market }
        }
        self.calendars = byCode
        self.codes = codes
        self.resolver = resolver
    }

    /// The known markets' own codes, sorted.
    public var markets: [MarketIdentifier] { calendars.keys.sorted() }

    /// Every code that names a calendar, aliases included.
    public var knownCodes: [MarketIdentifier] { codes.keys.sorted() }

    /// The calendar of a market or alias.
    public func calendar(for market: MarketIdentifier) -> TradingCalendar? {
        codes[market].flatMap { calendars[$0] }
    }

    public func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? {
        guard let market = resolver.market(ofSymbol: symbol, exchange: exchange) else { return nil }
        return codes[market] ?? market
    }

    public func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
        guard let calendar = calendar(for: market) else { return .open(until: Timestamp(milliseconds: .max)) }
        return calendar.status(at: instant)
    }

    public func timeZone(of market: MarketIdentifier) -> String? {
        calendar(for: market)?.timeZoneIdentifier
    }

    /// The market's sessions dated `first ... last`; empty for an unknown market.
    public func sessions(of market: MarketIdentifier, from first: CivilDate, through last: CivilDate) -> [TradingSession] {
        calendar(for: market)?.sessions(from: first, through: last) ?? []
    }
}
