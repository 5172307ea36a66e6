/// A dated event of a company's calendar (`docs/events.md`, "Calendar events"): an earnings
/// report, an ex-dividend day, a dividend payment or a split, as a source lists it.
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
    /// Dividends: the amount per share, when the source gives it.
    public var amount: ExactDecimal?
    /// Dividends: the currency of ``amount`` (`USD`).
    public var currency: String?
    /// Splits: the ratio.
    public var splitRatio: SplitRatio?

    public init(symbol: String, kind: EventKind, date: CivilDate, lastDate: CivilDate? = nil, estimate: ExactDecimal? = nil,
                source: String, movedFrom: CivilDate? = nil, timing: EarningsTiming? = nil,
                amount: ExactDecimal? = nil, currency: String? = nil, splitRatio: SplitRatio? = nil) {
        self.symbol = symbol
        self.kind = kind
        self.date = date
        self.lastDate = lastDate
        self.estimate = estimate
        self.source = source
        self.movedFrom = movedFrom
        self.timing = timing
        self.amount = amount
        self.currency = currency
        self.splitRatio = splitRatio
    }

    /// This event with what `other` (the same event as another source or an earlier read
    /// listed it) knows and this one does not: an estimate, a timing, an amount, a ratio.
    public func filling(from other: CompanyEvent) -> CompanyEvent {
        var merged = self
        merged.estimate = estimate ?? other.estimate
        merged.timing = timing ?? other.timing
        if amount == nil {
            merged.amount = other.amount
            merged.currency = other.currency
        }
        merged.splitRatio = splitRatio ?? other.splitRatio
        return merged
    }

    /// `NVDA|earnings|2017-05-10`: the same for a changed estimate, another for a moved date.
    public var id: String { "\(symbol)|\(kind.rawValue)|\(date)" }

    /// The event as one JSON object (`pricewatch events --format json`, a reminder's `data`):
    /// `symbol`, `event`, `date`, `last_date`, `estimate`, `moved_from`, `timing` (`bmo`, `amc`,
    /// `dmh`), `amount` and `currency` (dividends), `ratio` (splits, `2:1`), `source`, and `rule`
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
        json.number("amount", amount)
        json.string("currency", currency)
        json.string("ratio", splitRatio?.stored)
        json.string("source", source)
        if let rule { json.string("rule", rule) }
        return json.result
    }

    /// `earnings of NVDA on 2017-05-10 (estimated 2017-05-10 to 2017-05-15; EPS estimate 0.66)`,
    /// `ex-dividend day of AAPL on 2026-02-09 (0.26 USD per share)`, `split of NVDA on
    /// 2024-06-10 (10-for-1)`.
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
        if let amount { details.append("\(amount.formatted(minimumFractionDigits: 2))" + (currency.map { " \($0)" } ?? "") + " per share") }
        if let splitRatio { details.append(splitRatio.description) }
        if let movedFrom { details.append("moved from \(movedFrom)") }
        return "\(what) of \(symbol) on \(date)" + (details.isEmpty ? "" : " (\(details.joined(separator: "; ")))")
    }
}
