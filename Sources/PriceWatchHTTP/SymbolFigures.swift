import PriceWatchCore

/// A watched symbol's figures as every page shows them, one definition for the watchlist, the
/// symbol page and the markets page: the day's points (stored history when there is a reader,
/// followed by anything received since its last candle), the latest price, the previous close
/// (the live one, else the stored quote's) and the change from it, as `pricewatch watch`
/// computes it, and the day's volume when the latest quote reported it.
struct SymbolFigures {
    let points: [HistoryPoint]
    let last: HistoryPoint?
    let previousClose: ExactDecimal?
    /// `+0.29%` and its CSS class (``DashboardPage/changeText(price:previousClose:)``).
    let change: (text: String, css: String)
    /// The lowest and highest of the day's points, nil without any.
    let dayRange: (low: ExactDecimal, high: ExactDecimal)?
    /// The volume of the latest received quote's day, nil when it reported none (``LiveQuotes/dayVolume(of:)``).
    let dayVolume: ExactDecimal?

    init(_ symbol: DashboardSnapshot.Symbol, live: LiveQuotes) {
        let received = live.dayPoints(of: symbol.symbol)
        points = symbol.dayPoints.isEmpty ? received
            : symbol.dayPoints + received.filter { $0.time > (symbol.dayPoints.last?.time ?? .init(milliseconds: .min)) }
        last = points.last ?? symbol.lastPrice
        previousClose = live.previousClose(of: symbol.symbol) ?? symbol.previousClose
        change = DashboardPage.changeText(price: last?.price, previousClose: previousClose)
        dayVolume = live.dayVolume(of: symbol.symbol)
        dayRange = points.isEmpty ? nil : points.dropFirst().reduce((low: points[0].price, high: points[0].price)) { range, point in
            (low: min(range.low, point.price), high: max(range.high, point.price))
        }
    }
}
