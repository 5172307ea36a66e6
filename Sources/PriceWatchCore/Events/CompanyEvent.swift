/// A dated event of a company's calendar (`docs/events.md`, "Calendar events"): an earnings
/// report, an ex-dividend day or a dividend payment, as a source lists it.
///
/// Its identity is the symbol, the kind and the date (``id``): a changed estimate is the same
/// event, a moved date is a new one (which carries ``movedFrom``).
public struct CompanyEvent: Sendable, Hashable {
    public var symbol: String
    public var kind: EventKind
    /// The day (of the exchange) the event is on; for an estimated range, its first day.
    public var date: CivilDate
    /// The last day of an estimated range (`between May 10 and May 15`); nil for one day.
    public var lastDate: CivilDate?
    /// Earnings: the average estimate of earnings per share, when the source gives one.
    public var estimate: ExactDecimal?
    /// The source that listed it (`yahoo`).
    public var source: String
    /// The date the source gave before, when it moved.
    public var movedFrom: CivilDate?
    /// Earnings: before the open, after the close or during the session, when the source says.
    public var timing: EarningsTiming?

    public init(symbol: String, kind: EventKind, date: CivilDate, lastDate: CivilDate? = nil, estimate: ExactDecimal? = nil,
                source: String, movedFrom: CivilDate? = nil, timing: EarningsTiming? = nil) {
        self.symbol = symbol
        self.kind = kind
        self.date = date
        self.lastDate = lastDate
        self.estimate = estimate
        self.source = source
        self.movedFrom = movedFrom
        self.timing = timing
    }

    /// `NVDA|earnings|2017-05-10`: the same for a changed estimate, another for a moved date.
    public var id: String { "\(symbol)|\(kind.rawValue)|\(date)" }

    /// The event as one JSON object (`pricewatch events --format json`, a reminder's `data`):
    /// `symbol`, `event`, `date`, `last_date`, `estimate`, `moved_from`, `timing` (`bmo`, `amc`,
    /// `dmh`), `source`, and `rule`
    /// when given.
    public func json(rule: String? = nil) -> String {
        var json = JSONWriter()
        json.string("symbol", symbol)
        json.string("event", kind.rawValue)
        json.string("date", date.description)
        json.string("last_date", lastDate?.description)
        json.number("estimate", estimate)
        json.string("moved_from", movedFrom?.description)
        json.string("timing", timing?.rawValue)
        json.string("source", source)
        if let rule { json.string("rule", rule) }
        return json.result
    }

    /// `earnings of NVDA on 2017-05-10 (estimated 2017-05-10 to 2017-05-15; EPS estimate 0.66)`.
    public var text: String {
        let what = switch kind {
        case .earnings: "earnings"
        case .exDividend: "ex-dividend day"
        case .dividendPayment: "dividend payment"
        case .split: "split"
        case .news: "news"
        }
        var details: [String] = []
        if let timing { details.append(timing.text) }
        if let lastDate, lastDate != date { details.append("estimated \(date) to \(lastDate)") }
        if let estimate { details.append("EPS estimate \(estimate)") }
        if let movedFrom { details.append("moved from \(movedFrom)") }
        return "\(what) of \(symbol) on \(date)" + (details.isEmpty ? "" : " (\(details.joined(separator: "; ")))")
    }
}
