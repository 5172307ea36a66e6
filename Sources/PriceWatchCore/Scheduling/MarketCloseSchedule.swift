/// Due at each close of a market's regular session (or the start of its lunch break: the
/// ``MarketHours`` port calls both a close), from the trading calendars: no close on weekends
/// and holidays, an early close on its day. A market that never closes (`24/7`, or one the
/// calendars do not know) is never due.
public struct MarketCloseSchedule: JobSchedule {
    public let market: MarketIdentifier
    let hours: any MarketHours

    public init(market: MarketIdentifier, hours: any MarketHours) {
        self.market = market
        self.hours = hours
    }

    public var description: String { "on close of \(market.rawValue)" }

    /// The end of time: a market that never closes is never due.
    static let never = Timestamp(milliseconds: .max)

    public func nextDue(after instant: Timestamp) -> Timestamp {
        var probe = Timestamp(milliseconds: instant.milliseconds + 1)
        // Open: its close. Closed: the close of the session that opens next.
        for _ in 0..<3 {
            switch hours.status(of: market, at: probe) {
            case .open(let until):
                return until.milliseconds >= Self.never.milliseconds / 2 ? Self.never : until
            case .closed(let until):
                guard let until, until > probe else { return Self.never }
                probe = until
            }
        }
        return Self.never
    }

    public func lastDue(atOrBefore instant: Timestamp) -> Timestamp? {
        var due = nextDue(after: Timestamp(milliseconds: instant.milliseconds - 8 * 86_400_000))
        guard due <= instant else { return nil }
        while true {
            let next = nextDue(after: due)
            if next > instant || next <= due { return due }
            due = next
        }
    }
}
