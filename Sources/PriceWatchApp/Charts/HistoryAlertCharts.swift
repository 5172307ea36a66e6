import FoundationEssentials
import PriceWatchCharts
import PriceWatchCore
import Synchronization

/// `chart = true` on email sinks in the daemon: the day of five-minute closes before an alert
/// from the recorded price history, the rule's threshold (for `above`, `below` and `crosses`)
/// as a labelled line and the alert as a marker, drawn by cairo as a 600 px PNG.
///
/// The history is attached once the state database is open (``attach(_:)``): the sinks are
/// built from the configuration before it is, and no alert is delivered before.
final class HistoryAlertCharts: AlertChartProvider {
    private let history = Mutex<(any PriceHistoryReader)?>(nil)
    private let renderer: any ChartRenderer

    init(renderer: any ChartRenderer = CairoChartRenderer()) {
        self.renderer = renderer
    }

    func attach(_ reader: any PriceHistoryReader) {
        history.withLock { $0 = reader }
    }

    func chart(for alert: Alert) async -> NotificationAttachment? {
        guard let reader = history.withLock({ $0 }) else { return nil }
        if let series = alert.series, let timeframe = Timeframe(series.timeframe) {
            return await render(technicalChart(for: alert, series: series, timeframe: timeframe, reader: reader), of: alert)
        }
        let day: Int64 = 86_400_000
        guard let candles = try? await reader.candles(symbol: alert.symbol, interval: .fiveMinutes,
                                                      from: Timestamp(milliseconds: alert.time.milliseconds - day),
                                                      to: Timestamp(milliseconds: alert.time.milliseconds + 1)),
              candles.count >= HistoryChartImage.minimumCandles else { return nil }
        let description = ChartDescription(title: alert.symbol, series: candles.map { ChartPoint(time: $0.time, price: $0.close) },
                                           levels: Self.levels(of: alert),
                                           markers: [ChartMarker(time: alert.time, price: alert.price, label: alert.rule)],
                                           timeZone: "UTC")
        return await render(description, of: alert)
    }

    private func render(_ description: ChartDescription?, of alert: Alert) async -> NotificationAttachment? {
        guard let description, let png = try? await renderer.render(description, as: .png) else { return nil }
        let safe = String(alert.symbol.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-") ? Character(scalar) : "_"
        })
        return NotificationAttachment(filename: "chart-\(safe).png", contentType: "image/png", bytes: png)
    }

    /// The bars shown for a technical rule's alert.
    static let technicalBars = 120

    /// A technical rule's alert: the last 120 bars of its timeframe before the alert (grouped
    /// from the stored candles as the daemon groups them), the series it names that belong on
    /// the price chart (averages, bands, channels) as labelled lines, a numeric level on the
    /// price as a threshold, and the alert; an oscillator (RSI, MACD, rate of change, volume)
    /// in a panel under the prices, with its reference levels and the rule's number.
    func technicalChart(for alert: Alert, series: SeriesReading, timeframe: Timeframe,
                        reader: any PriceHistoryReader) async -> ChartDescription? {
        let specs = [series.of, series.level].compactMap { try? SeriesSpec(parsing: $0) }
        let warmUp = specs.map(\.warmUpBars).max() ?? 1
        let count = Self.technicalBars + warmUp
        let from = Timestamp(milliseconds: alert.time.milliseconds - BarHistory.lookBack(bars: count, timeframe: timeframe))
        guard let candles = try? await reader.candles(symbol: alert.symbol, interval: BarHistory.candleInterval(for: timeframe),
                                                      from: from, to: Timestamp(milliseconds: alert.time.milliseconds + 1)) else { return nil }
        let bars = BarHistory.bars(from: candles, timeframe: timeframe, limit: count)
        guard bars.count >= 2 else { return nil }
        let shown = bars.suffix(Self.technicalBars)
        let numberLevel = series.level == series.levelValue.description
        let lines = SeriesChartLines(specs: specs, bars: bars, shownFrom: shown.first?.time ?? alert.time,
                                     ruleLevel: numberLevel ? (series.of, series.levelValue.doubleValue) : nil)
        let level = series.of == "price" && series.level == series.levelValue.description
            ? [ChartLevel(role: .threshold, price: series.levelValue, label: series.level)] : []
        var description = ChartDescription(title: "\(alert.symbol) · \(timeframe) bars",
                                           series: shown.map { ChartPoint(time: $0.time, price: $0.close) }, levels: level,
                                           markers: [ChartMarker(time: alert.time, price: alert.price, label: alert.rule)],
                                           timeZone: "UTC")
        description.overlays = lines.overlays
        description.panels = lines.panels
        if !lines.panels.isEmpty { description.height += 100 * lines.panels.count }
        return description
    }

    /// The lines an alert's chart shows: a threshold condition's price, or a percent
    /// condition's base (the previous close, the open, the price a window ago) and the price
    /// its percent lies at from the base (`fall 1%`: 1% under it; `move`: both sides).
    static func levels(of alert: Alert) -> [ChartLevel] {
        if let threshold = threshold(of: alert) { return [threshold] }
        let words = alert.condition.split(separator: " ")
        guard let base = alert.base, words.count >= 2, words[1].hasSuffix("%"),
              let percent = Double(words[1].dropLast()) else { return [] }
        let baseLabel = alert.condition.contains("from previous close") ? "prev close"
            : alert.condition.contains("from open") ? "open" : "base"
        var levels = [ChartLevel(role: .previousClose, price: base, label: baseLabel)]
        let baseValue = Double(base.scaled) / Double(ExactDecimal.unit)
        let signs: [Double] = switch words[0] {
        case "rise": [1]
        case "fall": [-1]
        case "move": [1, -1]
        default: []
        }
        for sign in signs {
            guard let price = ExactDecimal(baseValue * (1 + sign * percent / 100), roundedToFractionDigits: 4) else { continue }
            levels.append(ChartLevel(role: .threshold, price: price, label: "\(sign > 0 ? "+" : "-")\(words[1])"))
        }
        return levels
    }

    /// The price level of a threshold condition (`above 225.5`, `below 224`, `crosses 224.5`).
    static func threshold(of alert: Alert) -> ChartLevel? {
        let words = alert.condition.split(separator: " ")
        guard words.count >= 2, ["above", "below", "crosses"].contains(words[0]), let price = ExactDecimal(String(words[1])) else { return nil }
        // The chart writes the price after the label: `below 89000`, not `below 89000 89000`.
        return ChartLevel(role: .threshold, price: price, label: String(words[0]))
    }
}
