import PriceWatchCharts
import PriceWatchCore

/// The chart `pricewatch history --format png|svg` writes: the symbol's candles as a price
/// line with the previous close and the rules' levels, the series of its technical rules as
/// labelled lines and panels, drawn by the same layout and renderer as the alert emails'
/// charts (``ChartDescription``, ``CairoChartRenderer``).
public enum HistoryChartImage {
    /// Why a chart could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The fewest candles a chart is drawn from: fewer is "not enough data", never a line
    /// between two points that says nothing.
    public static let minimumCandles = 3

    /// What the chart of `history` shows, `width` by `height` pixels in `theme`, times in
    /// `timeZone` (an IANA name).
    public static func description(of history: ReadPriceHistory.History, theme: ChartTheme, width: Int, height: Int,
                                   timeZone: String) throws -> ChartDescription {
        guard history.candles.count >= minimumCandles else {
            throw Failure(description: "not enough data for a chart: \(history.candles.count) \(history.interval) candle(s) "
                          + "in the range, expected at least \(minimumCandles)")
        }
        var title = history.symbol + (history.currency.map { " \($0)" } ?? "")
        if let last = history.candles.last {
            title += "  \(last.close.formatted(minimumFractionDigits: 2))"
            if let base = history.previousClose, let change = last.close.percentChange(from: base, roundedTo: 2) {
                title += " \(change.isPositive ? "+" : "")\(change.formatted(minimumFractionDigits: 2))%"
            }
        }
        title += "  \(history.interval) candles"
        // The renderer writes the price after the label: the rule's id says which rule, and
        // the condition's number is not written twice.
        var levels = history.thresholds.map { level in
            ChartLevel(role: .threshold, price: level.price,
                       label: level.label.split(separator: ":", maxSplits: 1).first.map(String.init) ?? level.label)
        }
        if let previousClose = history.previousClose {
            levels.insert(ChartLevel(role: .previousClose, price: previousClose, label: "prev close"), at: 0)
        }
        var chart = ChartDescription(title: title, series: history.candles.map { ChartPoint(time: $0.time, price: $0.close) },
                                     levels: levels, timeZone: timeZone, theme: theme, width: width, height: height)
        chart.overlays = history.seriesLines.overlays
        chart.panels = history.seriesLines.panels
        return chart
    }

    /// The image bytes of `chart` in `format`.
    public static func render(_ chart: ChartDescription, as format: ChartImageFormat) async throws -> [UInt8] {
        try await CairoChartRenderer().render(chart, as: format)
    }
}
