import Foundation

/// Lays a ``ChartDescription`` out as a ``ChartDrawing``: the plot area, nice price ticks, time
/// ticks on whole local hours, days or months of the chart's time zone (so a DST change moves
/// the ticks, not the labels), the grid, the price line, the labelled levels, session breaks
/// and alert markers. Pure: the same description always gives the same drawing.
public enum ChartLayout {
    static let marginLeft = 64.0
    static let marginRight = 16.0
    static let marginTop = 36.0
    static let marginBottom = 40.0
    static let labelSize = 11.0
    static let titleSize = 14.0

    public static func drawing(for chart: ChartDescription) -> ChartDrawing {
        let width = Double(max(chart.width, 200))
        let height = Double(max(chart.height, 120))
        let palette = chart.theme.palette
        let plotLeft = marginLeft
        let plotRight = width - marginRight
        let plotTop = marginTop
        // The time axis is at the bottom; panels (oscillators) sit between it and the prices.
        let axisBottom = height - marginBottom
        let panelSpace = Double(chart.panels.count) * (panelHeight(height) + panelGap)
        let plotBottom = axisBottom - panelSpace
        var shapes: [ChartShape] = [
            .rectangle(origin: CanvasPoint(x: 0, y: 0), width: width, height: height, fill: palette.background),
            .text(chart.title, at: CanvasPoint(x: plotLeft, y: 22), size: titleSize, color: palette.text,
                  anchor: .start, bold: true),
        ]

        let prices = chart.series.map(\.price) + chart.levels.map(\.price) + chart.markers.map(\.price)
            + chart.overlays.flatMap { $0.points.map(\.price) }
        let (low, high) = priceRange(prices.map(double))
        let priceStep = niceStep((high - low) / 5)
        func y(_ price: Double) -> Double { plotBottom - (price - low) / (high - low) * (plotBottom - plotTop) }

        let times = chart.series.map(\.time.milliseconds)
        let start = times.min() ?? 0
        let end = max(times.max() ?? 60_000, start + 60_000)
        func x(_ time: Timestamp) -> Double {
            plotLeft + Double(time.milliseconds - start) / Double(end - start) * (plotRight - plotLeft)
        }

        // Grid and price labels.
        let digits = fractionDigits(of: priceStep)
        var tick = (low / priceStep).rounded(.up) * priceStep
        while tick <= high + priceStep * 1e-9 {
            let row = crisp(y(tick))
            shapes.append(.polyline(points: [CanvasPoint(x: plotLeft, y: row), CanvasPoint(x: plotRight, y: row)],
                                    stroke: palette.grid, lineWidth: 1, dash: []))
            shapes.append(.text(priceLabel(tick, digits: digits), at: CanvasPoint(x: plotLeft - 6, y: row + 4),
                                size: labelSize, color: palette.text, anchor: .end, bold: false))
            tick += priceStep
        }
        let zone = TimeZone(identifier: chart.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        for timeTick in timeTicks(from: start, to: end, in: zone) {
            let column = crisp(x(Timestamp(milliseconds: timeTick.milliseconds)))
            shapes.append(.polyline(points: [CanvasPoint(x: column, y: plotTop), CanvasPoint(x: column, y: axisBottom)],
                                    stroke: palette.grid, lineWidth: 1, dash: []))
            shapes.append(.text(timeTick.label, at: CanvasPoint(x: column, y: axisBottom + 16), size: labelSize,
                                color: palette.text, anchor: .middle, bold: false))
        }
        shapes.append(.text(chart.timeZone, at: CanvasPoint(x: plotRight, y: axisBottom + 32), size: labelSize - 1,
                            color: palette.axis, anchor: .end, bold: false))

        // Axes.
        shapes.append(.polyline(points: [CanvasPoint(x: crisp(plotLeft), y: plotTop),
                                         CanvasPoint(x: crisp(plotLeft), y: crisp(plotBottom)),
                                         CanvasPoint(x: plotRight, y: crisp(plotBottom))],
                                stroke: palette.axis, lineWidth: 1, dash: []))

        for instant in chart.sessionBreaks where instant.milliseconds >= start && instant.milliseconds <= end {
            let column = crisp(x(instant))
            shapes.append(.polyline(points: [CanvasPoint(x: column, y: plotTop), CanvasPoint(x: column, y: plotBottom)],
                                    stroke: palette.sessionBreak, lineWidth: 1, dash: [2, 3]))
        }

        // Labels are placed last, together (``ChartLabelPlacer``): inside the image, none over
        // another, markers' first (an alert's rule is what the chart is about), then levels
        // and overlays.
        var labels: [(text: String, at: CanvasPoint, color: ChartColor, anchor: ChartShape.TextAnchor, bold: Bool)] = []
        for level in chart.levels {
            let row = crisp(y(double(level.price)))
            let color = level.role == .threshold ? palette.threshold : palette.previousClose
            shapes.append(.polyline(points: [CanvasPoint(x: plotLeft, y: row), CanvasPoint(x: plotRight, y: row)],
                                    stroke: color, lineWidth: 1.5, dash: level.role == .threshold ? [6, 4] : [2, 3]))
            labels.append((text: "\(level.label) \(level.price)", at: CanvasPoint(x: plotRight - 4, y: row - 4),
                           color: color, anchor: .end, bold: false))
        }

        if !chart.series.isEmpty {
            shapes.append(.polyline(points: chart.series.map { CanvasPoint(x: x($0.time), y: y(double($0.price))) },
                                    stroke: palette.line, lineWidth: 2, dash: []))
        }

        // Overlays after the price line, each labelled at its right end.
        for (index, overlay) in chart.overlays.enumerated() where overlay.points.count >= 2 {
            let color = ChartPalette.overlayColors[index % ChartPalette.overlayColors.count]
            shapes.append(.polyline(points: overlay.points.map { CanvasPoint(x: x($0.time), y: y(double($0.price))) },
                                    stroke: color, lineWidth: 1.5, dash: []))
            let row = y(double(overlay.points[overlay.points.count - 1].price)) - 4
            labels.append((text: overlay.label, at: CanvasPoint(x: plotRight - 4, y: min(max(row, plotTop + labelSize), plotBottom - 2)),
                           color: color, anchor: .end, bold: false))
        }

        for (index, panel) in chart.panels.enumerated() {
            let top = plotBottom + panelGap + Double(index) * (panelHeight(height) + panelGap)
            shapes += panelShapes(panel, top: top, bottom: top + panelHeight(height), left: plotLeft, right: plotRight,
                                  x: x, palette: palette)
        }

        var markerLabels: [(text: String, at: CanvasPoint, color: ChartColor, anchor: ChartShape.TextAnchor, bold: Bool)] = []
        for marker in chart.markers {
            let center = CanvasPoint(x: x(marker.time), y: y(double(marker.price)))
            shapes.append(.circle(center: center, radius: 5, fill: palette.marker, outline: palette.background,
                                  note: marker.note.map { "\(marker.label): \($0)" }))
            markerLabels.append((text: marker.label, at: CanvasPoint(x: center.x, y: center.y - 9), color: palette.marker,
                                 anchor: .middle, bold: true))
        }
        labels = markerLabels + labels
        let title = ChartLabelPlacer.box(chart.title, at: CanvasPoint(x: plotLeft, y: 22), size: titleSize, anchor: .start, bold: true)
        var placer = ChartLabelPlacer(width: width, height: height, reserved: [title])
        for label in labels {
            let at = placer.place(label.text, at: label.at, size: labelSize, anchor: label.anchor, bold: label.bold)
            shapes.append(.text(label.text, at: at, size: labelSize, color: label.color, anchor: label.anchor, bold: label.bold))
        }
        let frame = chart.series.isEmpty ? nil
            : PlotFrame(left: plotLeft, right: plotRight, top: plotTop, bottom: plotBottom,
                        start: Timestamp(milliseconds: start), end: Timestamp(milliseconds: end), low: low, high: high)
        return ChartDrawing(width: Int(width), height: Int(height), shapes: shapes, frame: frame)
    }

    static let panelGap = 10.0

    /// A panel's height: a quarter of the image, at least 50 pixels.
    static func panelHeight(_ height: Double) -> Double { max(50, (height * 0.25).rounded()) }

    /// One oscillator panel: a frame, its reference levels dashed and labelled, its lines in
    /// the overlay colours, a histogram as bars from zero (up and down in two colours), and
    /// its title at the top left.
    static func panelShapes(_ panel: ChartPanel, top: Double, bottom: Double, left: Double, right: Double,
                            x: (Timestamp) -> Double, palette: ChartPalette) -> [ChartShape] {
        let values = panel.lines.flatMap { $0.points.map { double($0.price) } } + panel.levels
            + panel.histogram.map { double($0.price) } + (panel.histogram.isEmpty ? [] : [0])
        let (low, high) = priceRange(values)
        func y(_ value: Double) -> Double { bottom - (value - low) / (high - low) * (bottom - top) }
        var shapes: [ChartShape] = [
            .polyline(points: [CanvasPoint(x: crisp(left), y: crisp(top)), CanvasPoint(x: crisp(left), y: crisp(bottom)),
                               CanvasPoint(x: right, y: crisp(bottom))], stroke: palette.axis, lineWidth: 1, dash: []),
        ]
        for level in panel.levels {
            let row = crisp(y(level))
            shapes.append(.polyline(points: [CanvasPoint(x: left, y: row), CanvasPoint(x: right, y: row)],
                                    stroke: palette.threshold, lineWidth: 1, dash: [4, 3]))
            shapes.append(.text(priceLabel(level, digits: fractionDigits(of: niceStep(abs(level) / 5 + 0.1))),
                                at: CanvasPoint(x: left - 6, y: row + 4), size: labelSize, color: palette.text, anchor: .end, bold: false))
        }
        if !panel.histogram.isEmpty {
            let zero = y(0)
            let slot = (right - left) / Double(max(panel.histogram.count, 1))
            for point in panel.histogram {
                let value = y(double(point.price))
                shapes.append(.rectangle(origin: CanvasPoint(x: x(point.time) - slot * 0.35, y: min(zero, value)),
                                         width: max(slot * 0.7, 1), height: max(abs(zero - value), 1),
                                         fill: point.price.scaled >= 0 ? ChartPalette.overlayColors[2] : ChartPalette.overlayColors[3]))
            }
        }
        for (index, line) in panel.lines.enumerated() where line.points.count >= 2 {
            shapes.append(.polyline(points: line.points.map { CanvasPoint(x: x($0.time), y: y(double($0.price))) },
                                    stroke: ChartPalette.overlayColors[index % ChartPalette.overlayColors.count], lineWidth: 1.5, dash: []))
        }
        shapes.append(.text(panel.title, at: CanvasPoint(x: left + 4, y: top + labelSize), size: labelSize,
                            color: palette.text, anchor: .start, bold: false))
        return shapes
    }

    /// A tick on the time axis: its instant and its label in the chart's time zone.
    public struct TimeTick: Sendable, Hashable {
        public var milliseconds: Int64
        public var label: String
    }

    /// Ticks at whole local units (minutes, hours, days, months, years) of `zone` in
    /// `start ... end` (milliseconds since the epoch): at most about 7 of them.
    public static func timeTicks(from start: Int64, to end: Int64, in zone: TimeZone) -> [TimeTick] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let spanSeconds = Double(end - start) / 1000
        let steps: [(Calendar.Component, Int, Double)] = [
            (.minute, 1, 60), (.minute, 5, 300), (.minute, 15, 900), (.minute, 30, 1_800),
            (.hour, 1, 3_600), (.hour, 2, 7_200), (.hour, 3, 10_800), (.hour, 6, 21_600), (.hour, 12, 43_200),
            (.day, 1, 86_400), (.day, 2, 172_800), (.day, 7, 604_800),
            (.month, 1, 2_629_746), (.month, 3, 7_889_238), (.month, 6, 15_778_476),
            (.year, 1, 31_556_952), (.year, 2, 63_113_904), (.year, 5, 157_784_760), (.year, 10, 315_569_520),
        ]
        let (component, count, _) = steps.first { spanSeconds / $0.2 <= 7 } ?? steps[steps.count - 1]
        let first = Date(timeIntervalSince1970: Double(start) / 1000)
        // The last whole unit at or before the start, aligned to the step within its parent.
        var parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: first)
        switch component {
        case .minute: parts.minute = (parts.minute ?? 0) / count * count
        case .hour: parts.minute = 0; parts.hour = (parts.hour ?? 0) / count * count
        case .day: parts.minute = 0; parts.hour = 0
        case .month: parts.minute = 0; parts.hour = 0; parts.day = 1
                     parts.month = ((parts.month ?? 1) - 1) / count * count + 1
        default: parts.minute = 0; parts.hour = 0; parts.day = 1; parts.month = 1
                 parts.year = (parts.year ?? 0) / count * count
        }
        // Counting in wall-clock fields (not elapsed seconds) keeps ticks on whole local
        // hours across a DST change; calendar.date(from:) carries overflowing fields.
        var ticks: [TimeTick] = []
        for step in 0..<64 {
            var wall = parts
            switch component {
            case .minute: wall.minute = (wall.minute ?? 0) + step * count
            case .hour: wall.hour = (wall.hour ?? 0) + step * count
            case .day: wall.day = (wall.day ?? 1) + step * count
            case .month: wall.month = (wall.month ?? 1) + step * count
            default: wall.year = (wall.year ?? 0) + step * count
            }
            guard let date = calendar.date(from: wall) else { break }
            let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
            if milliseconds > end { break }
            if milliseconds >= start, ticks.last.map({ $0.milliseconds < milliseconds }) ?? true {
                ticks.append(TimeTick(milliseconds: milliseconds, label: label(date, component: component, calendar: calendar)))
            }
        }
        return ticks
    }

    static func label(_ date: Date, component: Calendar.Component, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        let month = Timestamp.monthAbbreviations[max(0, min(11, (parts.month ?? 1) - 1))]
        switch component {
        case .minute, .hour: return "\(two(parts.hour)):\(two(parts.minute))"
        case .day: return "\(month) \(parts.day ?? 1)"
        case .month: return "\(month) \(parts.year ?? 0)"
        default: return String(parts.year ?? 0)
        }
    }

    static func double(_ value: ExactDecimal) -> Double { Double(value.scaled) / Double(ExactDecimal.unit) }

    /// The price range with 5 % headroom; a flat or empty series gets a range of its own.
    static func priceRange(_ values: [Double]) -> (Double, Double) {
        guard let low = values.min(), let high = values.max() else { return (0, 1) }
        if high - low < 1e-9 {
            let pad = max(abs(low) * 0.01, 0.01)
            return (low - pad, high + pad)
        }
        let pad = (high - low) * 0.05
        return (low - pad, high + pad)
    }

    /// 1, 2 or 5 times a power of ten, the nearest at or above `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * power >= raw * 0.999_999 { return factor * power }
        return 10 * power
    }

    static func fractionDigits(of step: Double) -> Int {
        step >= 1 ? 0 : min(8, Int((-log10(step)).rounded(.up)))
    }

    static func priceLabel(_ value: Double, digits: Int) -> String {
        guard let exact = ExactDecimal(value, roundedToFractionDigits: digits) else { return "" }
        return exact.rounded(toFractionDigits: digits).formatted(minimumFractionDigits: digits)
    }

    /// Half-pixel positions keep one-pixel lines sharp.
    static func crisp(_ value: Double) -> Double { value.rounded(.down) + 0.5 }
}
