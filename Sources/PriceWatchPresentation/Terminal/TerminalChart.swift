import PriceWatchCore
import FoundationEssentials

/// A line chart of candle closes drawn with Unicode braille for a terminal: a price axis on
/// the left, a time axis below (in a given time zone), horizontal lines for the previous close
/// and rule thresholds (labelled on the right), technical rules' series over the closes, and a
/// dotted column at each session break.
///
/// Candles are spaced evenly by index, not by time: nights, weekends and holidays take no room
/// (trading apps draw them the same way); a session break (a gap longer than three intervals
/// between intraday candles) is marked instead. Pure: the same input draws the same lines.
public struct TerminalChart: Sendable {
    /// A horizontal line at a price: the previous close, a rule's threshold.
    public struct Level: Sendable, Hashable {
        public var label: String
        public var price: ExactDecimal
        public init(label: String, price: ExactDecimal) {
            self.label = label
            self.price = price
        }
    }

    /// A series drawn over the closes: a technical rule's average or band (`sma(50)`),
    /// one value per candle (nil where it is undefined), labelled on the right at its end.
    public struct Overlay: Sendable, Hashable {
        public var label: String
        public var values: [ExactDecimal?]
        public init(label: String, values: [ExactDecimal?]) {
            self.label = label
            self.values = values
        }
    }

    public var candles: [Candle]
    /// Columns of the whole chart, labels included (at least 30).
    public var width: Int
    /// Rows of the plot (at least 3), axes not included.
    public var height: Int
    public var timeZone: TimeZone
    public var levels: [Level]
    /// ANSI colour (the line green when the last close is not below the first, else red;
    /// levels dim). Only for a terminal, never with `NO_COLOR`: the caller decides.
    public var colour: Bool
    /// Series over the closes (their values in the candles' order).
    public var overlays: [Overlay]
    /// Whether the time axis is drawn under the plot (a panel under a chart leaves it out).
    public var showsTimeAxis: Bool
    /// Whether every level is drawn, however far from the closes (an oscillator's 30 and 70);
    /// otherwise one far outside them is listed under the chart.
    public var drawsEveryLevel: Bool

    public init(candles: [Candle], width: Int, height: Int, timeZone: TimeZone, levels: [Level] = [], colour: Bool = false,
                overlays: [Overlay] = [], showsTimeAxis: Bool = true, drawsEveryLevel: Bool = false) {
        self.drawsEveryLevel = drawsEveryLevel
        self.candles = candles.sorted { $0.time < $1.time }
        self.overlays = overlays
        self.showsTimeAxis = showsTimeAxis
        self.width = max(30, width)
        self.height = max(3, height)
        self.timeZone = timeZone
        self.levels = levels
        self.colour = colour
    }

    /// The chart's lines; one line saying so when there are no candles.
    public func render() -> [String] {
        guard let first = candles.first, let last = candles.last else { return ["(no prices in this range)"] }
        let closes = candles.map(\.close)
        let dataLow = closes.min() ?? first.close
        let dataHigh = closes.max() ?? first.close
        // Levels far outside the prices would flatten the line: those are listed, not drawn.
        // (Doubles: no overflow whatever the prices.)
        let margin = max(Double(dataHigh.scaled - dataLow.scaled) / 2, Double(dataHigh.scaled) / 100)
        let drawn = drawsEveryLevel ? levels : levels.filter { level in
            let price = Double(level.price.scaled)
            return price >= Double(dataLow.scaled) - margin && price <= Double(dataHigh.scaled) + margin
        }
        let offChart = levels.filter { level in !drawn.contains(level) }
        let overlayValues = overlays.flatMap { $0.values.compactMap { $0 } }
        let low = ([dataLow] + drawn.map(\.price) + overlayValues).min() ?? dataLow
        let high = ([dataHigh] + drawn.map(\.price) + overlayValues).max() ?? dataHigh
        let digits = max(2, closes.map(\.significantFractionDigits).max() ?? 2)

        func label(_ value: ExactDecimal) -> String { value.rounded(toFractionDigits: digits).formatted(minimumFractionDigits: digits) }
        let middle = ExactDecimal(scaled: Int64((Int128(low.scaled) + Int128(high.scaled)) / 2))
        let axisWidth = [high, low, middle].map { label($0).count }.max() ?? 1
        let levelLabels = drawn.map { "┄ \($0.label)" } + overlays.map { "· \($0.label)" }
        let rightWidth = min(40, (levelLabels.map(\.count).max() ?? 0) + (levelLabels.isEmpty ? 0 : 1))
        let plotWidth = max(10, width - axisWidth - 2 - rightWidth)

        // The braille dot grid: 2 dots wide, 4 high per cell.
        let dotsWide = plotWidth * 2
        let dotsHigh = height * 4
        var dots = [[Bool]](repeating: [Bool](repeating: false, count: dotsWide), count: dotsHigh)
        func level(_ price: ExactDecimal) -> Int {
            guard high.scaled > low.scaled else { return dotsHigh / 2 }
            let fraction = Double(Int128(price.scaled) - Int128(low.scaled)) / Double(Int128(high.scaled) - Int128(low.scaled))
            return min(dotsHigh - 1, max(0, Int((fraction * Double(dotsHigh - 1)).rounded())))
        }
        func column(_ index: Int) -> Int {
            candles.count == 1 ? 0 : index * (dotsWide - 1) / (candles.count - 1)
        }
        var previous: (x: Int, y: Int)?
        for (index, candle) in candles.enumerated() {
            let point = (x: column(index), y: level(candle.close))
            if let from = previous {
                let steps = max(1, point.x - from.x)
                var lastY = from.y
                for step in 1...steps {
                    let x = from.x + step * (point.x - from.x) / steps
                    let y = from.y + (point.y - from.y) * step / steps
                    for dotY in min(lastY, y)...max(lastY, y) { dots[dotsHigh - 1 - dotY][x] = true }
                    lastY = y
                }
            }
            dots[dotsHigh - 1 - point.y][point.x] = true
            previous = point
        }

        // Overlays in a grid of their own: a cell shows them only where the closes leave it
        // empty, so the price line is never hidden.
        var overlayDots = [[Bool]](repeating: [Bool](repeating: false, count: dotsWide), count: dotsHigh)
        var overlayEnds: [(row: Int, label: Int)] = []
        for (number, overlay) in overlays.enumerated() {
            var from: (x: Int, y: Int)?
            for (index, value) in overlay.values.prefix(candles.count).enumerated() {
                guard let value else {
                    from = nil
                    continue
                }
                let point = (x: column(index), y: level(value))
                if let from, point.x > from.x + 1 {
                    for x in (from.x + 1)..<point.x {
                        overlayDots[dotsHigh - 1 - (from.y + (point.y - from.y) * (x - from.x) / (point.x - from.x))][x] = true
                    }
                }
                overlayDots[dotsHigh - 1 - point.y][point.x] = true
                from = point
            }
            if let end = from {
                let row = height - 1 - end.y / 4
                overlayEnds.append((row, drawn.count + number))
            }
        }

        // Session breaks: the cell column of the first candle after a gap.
        var breaks = Set<Int>()
        if first.interval != .oneDay {
            for index in candles.indices.dropFirst()
            where candles[index].time.milliseconds - candles[index - 1].time.milliseconds > 3 * first.interval.seconds * 1000 {
                breaks.insert(column(index) / 2)
            }
        }
        var levelRows: [Int: Int] = [:]
        for (offset, drawnLevel) in drawn.enumerated() {
            let row = height - 1 - level(drawnLevel.price) / 4
            if levelRows[row] == nil { levelRows[row] = offset }
        }
        var labelRows = levelRows
        // An overlay's label goes at its last value's row, else the nearest free row.
        for (row, offset) in overlayEnds {
            let candidates = (0..<height).sorted { abs($0 - row) < abs($1 - row) }
            if let free = candidates.first(where: { labelRows[$0] == nil }) { labelRows[free] = offset }
        }

        let rising = last.close >= first.close
        let lineColour = colour ? (rising ? "\u{1B}[32m" : "\u{1B}[31m") : ""
        let dim = colour ? "\u{1B}[2m" : ""
        let overlayColour = colour ? "\u{1B}[36m" : ""
        let reset = colour ? "\u{1B}[0m" : ""
        var lines: [String] = []
        for row in 0..<height {
            var text = ""
            let axisLabel: String
            switch row {
            case 0: axisLabel = label(high)
            case height - 1: axisLabel = label(low)
            case height / 2 where height >= 5: axisLabel = label(middle)
            default: axisLabel = ""
            }
            text += String(repeating: " ", count: axisWidth - axisLabel.count) + axisLabel + (axisLabel.isEmpty ? " │" : " ┤")
            var colourOn: String?
            for cell in 0..<plotWidth {
                let glyph = brailleCell(dots, row: row, cell: cell)
                let piece: String
                let wanted: String
                if let glyph {
                    piece = glyph
                    wanted = lineColour
                } else if let glyph = brailleCell(overlayDots, row: row, cell: cell) {
                    piece = glyph
                    wanted = overlayColour
                } else if levelRows[row] != nil {
                    piece = "┄"
                    wanted = dim
                } else if breaks.contains(cell) {
                    piece = "┊"
                    wanted = dim
                } else {
                    piece = " "
                    wanted = ""
                }
                if colour, wanted != (colourOn ?? "") {
                    text += reset + wanted
                    colourOn = wanted
                }
                text += piece
            }
            if colour, colourOn != nil, colourOn != "" { text += reset }
            if let offset = labelRows[row] {
                text += " " + dim + String(levelLabels[offset].prefix(rightWidth - 1)) + reset
            }
            lines.append(trimmedRight(text))
        }
        if showsTimeAxis { lines += timeAxis(plotWidth: plotWidth, axisWidth: axisWidth, column: { column($0) / 2 }) }
        for level in offChart { lines.append("\(level.label) (off the chart)") }
        return lines
    }

    /// The braille character of one cell, nil when none of its dots is set.
    private func brailleCell(_ dots: [[Bool]], row: Int, cell: Int) -> String? {
        // Dot bits: left column 1, 2, 3, 7 (top to bottom), right column 4, 5, 6, 8.
        let bits: [[UInt32]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
        var value: UInt32 = 0
        for dy in 0..<4 {
            for dx in 0..<2 where dots[row * 4 + dy][cell * 2 + dx] { value |= bits[dy][dx] }
        }
        guard value != 0, let scalar = Unicode.Scalar(0x2800 + value) else { return nil }
        return String(Character(scalar))
    }

    /// The axis line with a tick at each label, and the labels: the first candle, then the
    /// first candle of each new hour, day, month or year (by the chart's span), where there is
    /// room, all in ``timeZone``.
    private func timeAxis(plotWidth: Int, axisWidth: Int, column: (Int) -> Int) -> [String] {
        guard let first = candles.first, let last = candles.last else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let span = last.time.milliseconds - first.time.milliseconds
        let day: Int64 = 86_400_000
        enum Unit { case hour, day, month, year }
        let unit: Unit = span <= 2 * day ? .hour : span <= 45 * day ? .day : span <= 730 * day ? .month : .year
        func parts(_ time: Timestamp) -> (components: DateComponents, offset: Int) {
            let date = Date(timeIntervalSince1970: Double(time.milliseconds) / 1000)
            return (calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date), timeZone.secondsFromGMT(for: date))
        }
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "--" }
        func key(_ p: DateComponents, offset: Int) -> [Int?] {
            switch unit {
            // With the offset: the hour repeated when clocks go back is a new hour.
            case .hour: [p.year, p.month, p.day, p.hour, offset]
            case .day: [p.year, p.month, p.day]
            case .month: [p.year, p.month]
            case .year: [p.year]
            }
        }
        func text(_ p: DateComponents) -> String {
            switch unit {
            case .hour: "\(two(p.hour)):\(two(p.minute))"
            case .day: "\(two(p.month))-\(two(p.day))"
            case .month: "\(p.year.map(String.init) ?? "----")-\(two(p.month))"
            case .year: p.year.map(String.init) ?? "----"
            }
        }
        var axis = [Character](repeating: "─", count: plotWidth)
        var labels = [Character](repeating: " ", count: plotWidth + 8)
        var nextFree = 0
        var previousKey: [Int?]?
        for (index, candle) in candles.enumerated() {
            let (components, offset) = parts(candle.time)
            let candleKey = key(components, offset: offset)
            defer { previousKey = candleKey }
            guard index == 0 || candleKey != previousKey else { continue }
            let cell = column(index)
            let label = Array(text(components))
            guard cell >= nextFree, cell + label.count <= labels.count else { continue }
            axis[min(cell, plotWidth - 1)] = "┬"
            for (offset, character) in label.enumerated() { labels[cell + offset] = character }
            nextFree = cell + label.count + 2
        }
        let pad = String(repeating: " ", count: axisWidth + 1)
        return [trimmedRight(pad + "└" + String(axis)), trimmedRight(pad + " " + String(labels))]
    }

    private func trimmedRight(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
